interface OutboxMessage {
  kind: 'email' | 'sms';
  at: string;
  to?: string[];
  phoneNumber?: string;
  text?: string | null;
  message?: string;
}

/**
 * The newest 4-digit pin sent to an e-mail address or a phone number, read from the twin's dev
 * outbox (/dev/outbox.json), polling until it arrives. `after` skips pins sent before a moment.
 */
export async function waitForPin(
  baseUrl: string,
  kind: 'email' | 'sms',
  to: string,
  after = '',
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/dev/outbox.json`);
    const { messages } = (await response.json()) as { messages: OutboxMessage[] };
    const newest = messages
      .filter((message) =>
        kind === 'email'
          ? message.kind === 'email' && (message.to ?? []).includes(to)
          : message.kind === 'sms' && message.phoneNumber === to,
      )
      .filter((message) => message.at > after)
      .sort((a, b) => (a.at < b.at ? 1 : -1))[0];
    const match = /\b(\d{4})\b/.exec((kind === 'email' ? newest?.text : newest?.message) ?? '');
    if (match?.[1] !== undefined) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no ${kind} pin for ${to} within ${timeoutMs} ms`);
}
