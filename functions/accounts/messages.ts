import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';

/** Sends login pins: e-mail through SES v2, SMS through SNS (the outbox on the twin). */
export interface PinSender {
  sendEmailPin(input: { to: string; pin: string }): Promise<void>;
  sendSmsPin(input: { to: string; pin: string }): Promise<void>;
}

export function pinEmailText(pin: string): { subject: string; text: string } {
  return {
    subject: `Your login code: ${pin}`,
    text: `Your login code is ${pin}. It is valid for 10 minutes and can be used once.\nIf you did not try to log in, ignore this e-mail.`,
  };
}

export function pinSmsText(pin: string): string {
  return `Your login code is ${pin}. Valid 10 minutes.`;
}

/** One plain-text e-mail through SES v2 (the outbox on the twin). */
async function sendTextEmail(
  deps: { ses: SESv2Client; emailSender: string },
  to: string,
  message: { subject: string; text: string },
): Promise<void> {
  await deps.ses.send(
    new SendEmailCommand({
      FromEmailAddress: deps.emailSender,
      Destination: { ToAddresses: [to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
        },
      },
    }),
  );
}

export function createPinSender(deps: {
  ses: SESv2Client;
  sns: SNSClient;
  emailSender: string;
}): PinSender {
  return {
    async sendEmailPin({ to, pin }) {
      const { subject, text } = pinEmailText(pin);
      await sendTextEmail(deps, to, { subject, text });
    },
    async sendSmsPin({ to, pin }) {
      await deps.sns.send(
        new PublishCommand({
          PhoneNumber: to,
          Message: pinSmsText(pin),
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          },
        }),
      );
    },
  };
}

/** Sends the password-reset link (SES v2; the outbox on the twin). */
export interface ResetMailer {
  sendResetLink(input: { to: string; link: string }): Promise<void>;
}

export function resetEmailText(link: string): { subject: string; text: string } {
  return {
    subject: 'Reset your password',
    text: `To choose a new password, open this link within one hour:\n${link}\nThe link works once. If you did not ask to reset your password, ignore this e-mail.`,
  };
}

export function createResetMailer(deps: { ses: SESv2Client; emailSender: string }): ResetMailer {
  return {
    async sendResetLink({ to, link }) {
      const { subject, text } = resetEmailText(link);
      await sendTextEmail(deps, to, { subject, text });
    },
  };
}
