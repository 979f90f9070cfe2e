import { dynamoDocumentClient, sesClient } from '../core/clients';
import { readEnv, type HandlerEnv } from '../core/env';
import { accountsDirectory } from '../accounts/index';
import { publishToUserQuietly } from '../realtime/index';
import type { ServerMessageDraft } from '../../shared/realtime/messages';
import type { NotificationsDeps } from './notifications';
import { createNotificationsRepo } from './notifications.repo';
import { createNotificationMailer } from './notifications.sender';
import type { NotifyDeps } from './notify';

/** The product's name in e-mails (web/src/locales/en.json app.name). */
export const APP_NAME = 'MintMarket';

const publish = (userId: string, message: ServerMessageDraft) =>
  publishToUserQuietly(userId, message);

/** The notifications calls' real dependencies, from the environment. */
export function notificationsDeps(env: HandlerEnv = readEnv()): NotificationsDeps {
  return {
    repo: createNotificationsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    publish,
  };
}

/** What notify() needs: the repo, the live channel, SES and the accounts' e-mail addresses. */
export function notifyDeps(env: HandlerEnv = readEnv()): NotifyDeps {
  const directory = accountsDirectory();
  return {
    repo: createNotificationsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    publish,
    mailer: createNotificationMailer({ ses: () => sesClient(env), emailSender: env.emailSender }),
    emailOf: async (userId) => (await directory.contactOf(userId))?.email || undefined,
    webOrigin: env.webOrigin,
    appName: APP_NAME,
  };
}
