import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { NotificationEmail } from './notifications.email';

/** Sends notification e-mails: SES v2 with a plain-text and an HTML part (the outbox on the twin). */
export interface NotificationMailer {
  send(input: { to: string; email: NotificationEmail }): Promise<void>;
}

export function createNotificationMailer(deps: {
  ses: () => SESv2Client;
  emailSender: string;
}): NotificationMailer {
  return {
    async send({ to, email }) {
      await deps.ses().send(
        new SendEmailCommand({
          FromEmailAddress: deps.emailSender,
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              Subject: { Data: email.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: email.text, Charset: 'UTF-8' },
                Html: { Data: email.html, Charset: 'UTF-8' },
              },
            },
          },
        }),
      );
    },
  };
}
