import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { CreateTopicCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutboxMessage } from './outbox';
import { twin } from './test/twin-context';

/** The outbox through the product's real SDK clients (endpoint override), listed by the gateway. */

const context = twin();
const config = {
  region: context.env.AWS_REGION as string,
  credentials: {
    accessKeyId: context.env.AWS_ACCESS_KEY_ID as string,
    secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY as string,
  },
  maxAttempts: 1,
};
const ses = new SESv2Client({ ...config, endpoint: context.urls.outbox });
const sns = new SNSClient({ ...config, endpoint: context.urls.outbox });
afterAll(() => {
  ses.destroy();
  sns.destroy();
});

async function listed(): Promise<OutboxMessage[]> {
  const response = await fetch(`${context.urls.http}/dev/outbox.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

describe('outbox', () => {
  it('captures SESv2 SendEmail and lists it at /dev/outbox', async () => {
    const to = `buyer-${Date.now()}@example.com`;
    const sent = await ses.send(
      new SendEmailCommand({
        FromEmailAddress: 'Market <no-reply@market.example>',
        Destination: { ToAddresses: [to] },
        Content: {
          Simple: {
            Subject: { Data: 'Your pin is 1234' },
            Body: { Text: { Data: 'Enter 1234 to continue.' }, Html: { Data: '<b>1234</b>' } },
          },
        },
      }),
    );
    expect(sent.MessageId).toMatch(/\S+/);

    const message = (await listed()).find((item) => item.kind === 'email' && item.to.includes(to));
    expect(message).toMatchObject({
      kind: 'email',
      id: sent.MessageId,
      from: 'Market <no-reply@market.example>',
      subject: 'Your pin is 1234',
      text: 'Enter 1234 to continue.',
      html: '<b>1234</b>',
    });

    const page = await fetch(`${context.urls.http}/dev/outbox`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain(to);

    const negotiated = await fetch(`${context.urls.http}/dev/outbox`, {
      headers: { accept: 'application/json' },
    });
    expect(negotiated.headers.get('content-type')).toContain('application/json');
  });

  it('captures SNS Publish to a phone number', async () => {
    const phone = `+4479${String(Date.now()).slice(-8)}`;
    const sent = await sns.send(
      new PublishCommand({
        PhoneNumber: phone,
        Message: 'Your code is 4321',
        MessageAttributes: {
          'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        },
      }),
    );
    expect(sent.MessageId).toMatch(/\S+/);
    const message = (await listed()).find(
      (item) => item.kind === 'sms' && item.phoneNumber === phone,
    );
    expect(message).toMatchObject({
      kind: 'sms',
      id: sent.MessageId,
      message: 'Your code is 4321',
      attributes: { 'AWS.SNS.SMS.SMSType': 'Transactional' },
    });
  });

  it('delivers into the outbox through the standard endpoint variables alone', async () => {
    const previous = process.env.AWS_ENDPOINT_URL_SESV2;
    process.env.AWS_ENDPOINT_URL_SESV2 = context.env.AWS_ENDPOINT_URL_SESV2;
    const plain = new SESv2Client(config);
    try {
      const to = `env-${Date.now()}@example.com`;
      await plain.send(
        new SendEmailCommand({
          FromEmailAddress: 'no-reply@market.example',
          Destination: { ToAddresses: [to] },
          Content: { Simple: { Subject: { Data: 'env' }, Body: { Text: { Data: 'env' } } } },
        }),
      );
      expect((await listed()).some((item) => item.kind === 'email' && item.to.includes(to))).toBe(
        true,
      );
    } finally {
      plain.destroy();
      if (previous === undefined) delete process.env.AWS_ENDPOINT_URL_SESV2;
      else process.env.AWS_ENDPOINT_URL_SESV2 = previous;
    }
  });

  it('fails loudly on SES calls it does not emulate', async () => {
    await expect(ses.send(new GetAccountCommand({}))).rejects.toMatchObject({
      name: 'NotEmulatedException',
      message: expect.stringContaining('not emulated'),
    });
    await expect(
      ses.send(
        new SendEmailCommand({
          Destination: { ToAddresses: ['a@example.com'] },
          Content: { Template: { TemplateName: 'welcome', TemplateData: '{}' } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotEmulatedException' });
  });

  it('fails loudly on SNS calls it does not emulate', async () => {
    await expect(sns.send(new CreateTopicCommand({ Name: 'alerts' }))).rejects.toMatchObject({
      name: 'NotEmulated',
      message: expect.stringContaining('not emulated'),
    });
    await expect(
      sns.send(new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:0:t', Message: 'x' })),
    ).rejects.toMatchObject({ name: 'NotEmulated' });
    await expect(
      sns.send(new PublishCommand({ PhoneNumber: '12345', Message: 'x' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
  });
});
