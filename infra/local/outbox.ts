import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import {
  assertPortFree,
  closeServer,
  escapeHtml,
  escapeXml,
  listen,
  readBody,
  silentLog,
  type Log,
} from './support';

/**
 * The e-mail/SMS outbox: one HTTP endpoint that speaks exactly the two AWS calls the product
 * makes, so the real `@aws-sdk/client-sesv2` and `@aws-sdk/client-sns` clients (with an endpoint
 * override) deliver into it:
 * - SESv2 `SendEmail`: REST-JSON, `POST /v2/email/outbound-emails` (Simple or Raw content);
 * - SNS `Publish` to a phone number (SMS): query protocol, form-encoded, XML answer.
 * Anything else fails loudly: 400 with a "not emulated" message in the protocol's error shape.
 * Messages are kept in memory (and in a JSON file for `npm start`), printed on the console and
 * listed by the HTTP gateway at /dev/outbox.
 */

export interface OutboxEmail {
  kind: 'email';
  id: string;
  at: string;
  from: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  /** The MIME message of a Raw send. */
  raw: string | null;
  configurationSet: string | null;
  tags: { name: string; value: string }[];
}

export interface OutboxSms {
  kind: 'sms';
  id: string;
  at: string;
  phoneNumber: string;
  message: string;
  /** MessageAttributes as name → string value (e.g. AWS.SNS.SMS.SMSType). */
  attributes: Record<string, string>;
}

export type OutboxMessage = OutboxEmail | OutboxSms;

export interface OutboxOptions {
  port?: number;
  /** JSON file the messages are kept in across restarts (npm start); memory only if omitted. */
  persistFile?: string;
  /** Prints each message (npm start); silent if omitted. */
  print?: Log;
  log?: Log;
}

export interface Outbox {
  url: string;
  port: number;
  /** Newest first. */
  messages(): OutboxMessage[];
  clear(): void;
  stop(): Promise<void>;
}

const MAX_KEPT = 1000;
const BODY_LIMIT = 40 * 1024 * 1024;
const SNS_NS = 'http://sns.amazonaws.com/doc/2010-03-31/';

export async function startOutbox(options: OutboxOptions = {}): Promise<Outbox> {
  const log = options.log ?? silentLog;
  const print = options.print;
  if (options.port !== undefined) await assertPortFree(options.port, 'e-mail/SMS outbox');
  const store: OutboxMessage[] = options.persistFile ? load(options.persistFile, log) : [];

  const keep = (message: OutboxMessage): void => {
    store.unshift(message);
    if (store.length > MAX_KEPT) store.length = MAX_KEPT;
    if (options.persistFile) save(options.persistFile, store);
    print?.(describe(message));
  };

  const server = createServer((req, res) => {
    handle(req, res, keep).catch((error: unknown) => {
      log(`[outbox] failure: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('outbox failure');
      }
    });
  });
  const port = await listen(server, options.port ?? 0);
  const url = `http://localhost:${port}`;
  log(`[outbox] SESv2 SendEmail and SNS Publish (SMS) captured on ${url}`);

  return {
    url,
    port,
    messages: () => [...store],
    clear() {
      store.length = 0;
      if (options.persistFile) save(options.persistFile, store);
    },
    stop: () => closeServer(server),
  };
}

function load(file: string, log: Log): OutboxMessage[] {
  if (!existsSync(file)) return [];
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as OutboxMessage[]) : [];
  } catch (error) {
    log(`[outbox] ignoring unreadable ${file}: ${String(error)}`);
    return [];
  }
}

function save(file: string, store: OutboxMessage[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(store, null, 2));
  renameSync(temp, file);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  keep: (message: OutboxMessage) => void,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const body = (await readBody(req, BODY_LIMIT)) ?? Buffer.alloc(0);
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();

  if (url.pathname.startsWith('/v2/')) {
    if (req.method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
      sendEmail(body, res, keep);
      return;
    }
    sesError(
      res,
      'NotEmulatedException',
      `The local outbox emulates only SESv2 SendEmail (POST /v2/email/outbound-emails); ` +
        `${req.method ?? '?'} ${url.pathname} is not emulated.`,
    );
    return;
  }

  if (req.method === 'POST' && contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body.toString('utf8'));
    const action = form.get('Action');
    if (action === 'Publish') {
      publish(form, res, keep);
      return;
    }
    snsError(
      res,
      'NotEmulated',
      `The local outbox emulates only SNS Publish (SMS to a PhoneNumber); Action=${action ?? '(none)'} is not emulated.`,
    );
    return;
  }

  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(
    `Not emulated: the local outbox answers only SESv2 SendEmail (POST /v2/email/outbound-emails) ` +
      `and SNS Publish (form-encoded POST /). Got ${req.method ?? '?'} ${url.pathname}.\n`,
  );
}

/** REST-JSON error: the SDK reads the code from x-amzn-ErrorType and the message from the body. */
function sesError(res: ServerResponse, code: string, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(400, {
    'content-type': 'application/json',
    'x-amzn-errortype': code,
    'x-amzn-requestid': randomUUID(),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function snsError(res: ServerResponse, code: string, message: string): void {
  const requestId = randomUUID();
  const body =
    `<ErrorResponse xmlns="${SNS_NS}"><Error><Type>Sender</Type><Code>${escapeXml(code)}</Code>` +
    `<Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
  res.writeHead(400, {
    'content-type': 'text/xml',
    'x-amzn-requestid': requestId,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

interface SesContentPart {
  Data?: string;
  Charset?: string;
}

interface SendEmailRequest {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  ReplyToAddresses?: string[];
  Content?: {
    Simple?: {
      Subject?: SesContentPart;
      Body?: { Text?: SesContentPart; Html?: SesContentPart };
      Headers?: unknown[];
      Attachments?: unknown[];
    };
    Raw?: { Data?: string };
    Template?: unknown;
  };
  ConfigurationSetName?: string;
  EmailTags?: { Name?: string; Value?: string }[];
  ListManagementOptions?: unknown;
}

function sendEmail(body: Buffer, res: ServerResponse, keep: (message: OutboxMessage) => void) {
  let request: SendEmailRequest;
  try {
    request = JSON.parse(body.toString('utf8') || '{}') as SendEmailRequest;
  } catch {
    sesError(res, 'BadRequestException', 'The request body is not valid JSON.');
    return;
  }
  const content = request.Content;
  if (content?.Template !== undefined) {
    sesError(res, 'NotEmulatedException', 'SendEmail with Content.Template is not emulated.');
    return;
  }
  if (content?.Simple?.Attachments !== undefined || content?.Simple?.Headers !== undefined) {
    sesError(
      res,
      'NotEmulatedException',
      'SendEmail with Content.Simple.Attachments or Headers is not emulated.',
    );
    return;
  }
  if (request.ListManagementOptions !== undefined) {
    sesError(res, 'NotEmulatedException', 'SendEmail with ListManagementOptions is not emulated.');
    return;
  }
  const simple = content?.Simple;
  const raw = content?.Raw?.Data;
  if (simple === undefined && raw === undefined) {
    sesError(res, 'BadRequestException', 'Content must contain Simple or Raw.');
    return;
  }
  const destination = request.Destination ?? {};
  const to = destination.ToAddresses ?? [];
  const cc = destination.CcAddresses ?? [];
  const bcc = destination.BccAddresses ?? [];
  if (simple !== undefined) {
    if (request.FromEmailAddress === undefined) {
      sesError(res, 'BadRequestException', 'FromEmailAddress is required.');
      return;
    }
    if (to.length + cc.length + bcc.length === 0) {
      sesError(res, 'BadRequestException', 'Destination must name at least one recipient.');
      return;
    }
    if (simple.Subject?.Data === undefined) {
      sesError(res, 'BadRequestException', 'Content.Simple.Subject.Data is required.');
      return;
    }
  }
  const rawText = raw === undefined ? null : Buffer.from(raw, 'base64').toString('utf8');
  const id = `0100${Date.now().toString(16)}-${randomUUID()}-000000`;
  keep({
    kind: 'email',
    id,
    at: new Date().toISOString(),
    from: request.FromEmailAddress ?? headerOf(rawText, 'From'),
    to: to.length > 0 || rawText === null ? to : splitAddresses(headerOf(rawText, 'To')),
    cc,
    bcc,
    replyTo: request.ReplyToAddresses ?? [],
    subject: simple?.Subject?.Data ?? headerOf(rawText, 'Subject'),
    text: simple?.Body?.Text?.Data ?? null,
    html: simple?.Body?.Html?.Data ?? null,
    raw: rawText,
    configurationSet: request.ConfigurationSetName ?? null,
    tags: (request.EmailTags ?? []).map((tag) => ({
      name: tag.Name ?? '',
      value: tag.Value ?? '',
    })),
  });
  const answer = JSON.stringify({ MessageId: id });
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-amzn-requestid': randomUUID(),
    'content-length': Buffer.byteLength(answer),
  });
  res.end(answer);
}

function headerOf(raw: string | null, name: string): string | null {
  if (raw === null) return null;
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw);
  return match?.[1]?.trim() ?? null;
}

function splitAddresses(value: string | null): string[] {
  return value === null
    ? []
    : value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
}

const E164 = /^\+[1-9]\d{1,14}$/;

function publish(
  form: URLSearchParams,
  res: ServerResponse,
  keep: (message: OutboxMessage) => void,
) {
  const phoneNumber = form.get('PhoneNumber');
  const message = form.get('Message');
  if (form.get('TopicArn') !== null || form.get('TargetArn') !== null) {
    snsError(
      res,
      'NotEmulated',
      'Publish to a TopicArn or TargetArn is not emulated; the outbox captures SMS sent to a PhoneNumber.',
    );
    return;
  }
  if (form.get('MessageStructure') !== null) {
    snsError(res, 'NotEmulated', 'Publish with MessageStructure is not emulated.');
    return;
  }
  if (phoneNumber === null) {
    snsError(res, 'InvalidParameter', 'Invalid parameter: PhoneNumber Reason: missing');
    return;
  }
  if (!E164.test(phoneNumber)) {
    snsError(
      res,
      'InvalidParameter',
      `Invalid parameter: PhoneNumber Reason: ${phoneNumber} is not valid to publish to`,
    );
    return;
  }
  if (message === null || message === '') {
    snsError(res, 'InvalidParameter', 'Invalid parameter: Empty message');
    return;
  }
  const attributes: Record<string, string> = {};
  for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n++) {
    const name = form.get(`MessageAttributes.entry.${n}.Name`) ?? '';
    attributes[name] =
      form.get(`MessageAttributes.entry.${n}.Value.StringValue`) ??
      form.get(`MessageAttributes.entry.${n}.Value.BinaryValue`) ??
      '';
  }
  const id = randomUUID();
  keep({
    kind: 'sms',
    id,
    at: new Date().toISOString(),
    phoneNumber,
    message,
    attributes,
  });
  const requestId = randomUUID();
  const body =
    `<PublishResponse xmlns="${SNS_NS}"><PublishResult><MessageId>${id}</MessageId></PublishResult>` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></PublishResponse>`;
  res.writeHead(200, {
    'content-type': 'text/xml',
    'x-amzn-requestid': requestId,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The console print of a captured message. */
export function describe(message: OutboxMessage): string {
  if (message.kind === 'sms') {
    return `[outbox] SMS to ${message.phoneNumber}: ${message.message}`;
  }
  const body = (
    message.text ??
    (message.html === null ? null : stripTags(message.html)) ??
    message.raw ??
    ''
  ).trim();
  const recipients = [...message.to, ...message.cc, ...message.bcc].join(', ');
  const indented = body
    .split('\n')
    .slice(0, 20)
    .map((line) => `    ${line}`)
    .join('\n');
  return `[outbox] e-mail to ${recipients} from ${message.from ?? '?'}: ${message.subject ?? '(no subject)'}\n${indented}`;
}

function stripTags(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The /dev/outbox page: newest first; HTML bodies shown in sandboxed frames. */
export function renderOutboxPage(messages: OutboxMessage[]): string {
  const rows = messages
    .map((message) => {
      if (message.kind === 'sms') {
        return (
          `<article class="sms"><header><b>SMS</b> to ${escapeHtml(message.phoneNumber)}` +
          `<time>${escapeHtml(message.at)}</time></header><pre>${escapeHtml(message.message)}</pre></article>`
        );
      }
      const html =
        message.html === null
          ? ''
          : `<iframe sandbox="" srcdoc="${escapeHtml(message.html)}" title="HTML body"></iframe>`;
      const text = message.text === null ? '' : `<pre>${escapeHtml(message.text)}</pre>`;
      const raw = message.raw === null ? '' : `<pre>${escapeHtml(message.raw)}</pre>`;
      return (
        `<article class="email"><header><b>${escapeHtml(message.subject ?? '(no subject)')}</b>` +
        `<time>${escapeHtml(message.at)}</time></header>` +
        `<p>From ${escapeHtml(message.from ?? '?')} to ${escapeHtml(message.to.join(', '))}` +
        `${message.cc.length ? ` cc ${escapeHtml(message.cc.join(', '))}` : ''}` +
        `${message.bcc.length ? ` bcc ${escapeHtml(message.bcc.join(', '))}` : ''}</p>` +
        `${text}${html}${raw}</article>`
      );
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:.75rem 0}
header{display:flex;justify-content:space-between;gap:1rem}time{color:#777;font-size:.85rem}
pre{white-space:pre-wrap;background:#f7f7f7;padding:.5rem;border-radius:4px}
iframe{width:100%;min-height:16rem;border:1px solid #eee}.sms{border-color:#9cd}
</style></head><body>
<h1>Dev outbox</h1>
<p>E-mails (SESv2 SendEmail) and SMS (SNS Publish) the local twin captured, newest first.
${messages.length} message(s). <a href="/dev/outbox">Refresh</a> · <a href="/dev/outbox.json">JSON</a></p>
${rows || '<p><i>Nothing sent yet.</i></p>'}
</body></html>`;
}
