import { TIMINGS } from '@shared/constants/limits';
import {
  duplicateFilter,
  GUEST_USER_ID,
  serverMessageSchema,
  type ServerMessage,
} from '@shared/realtime/messages';
import { useEffect, useRef } from 'react';
import { useAuth } from './auth';
import { currentAccessToken } from './authClient';
import { useConfig } from './config';

type SocketFactory = (url: string) => WebSocket;

export interface LiveChannelOptions {
  /** The channel's base URL (GET /api/config `realtimeUrl`: wss:// in AWS, ws://…:3001 locally). */
  url: string;
  /** The caller's user id; null connects as a guest. */
  userId: string | null;
  /** The access token the channel checks on connect (read again on each reconnect). */
  token: () => Promise<string | undefined>;
  onMessage: (message: ServerMessage) => void;
  /** For tests. */
  socket?: SocketFactory;
}

export interface LiveChannel {
  close: () => void;
}

/** `url?userid=<id>&token=<access token>` (guests: `userid=<annon>` and no token). */
export function channelUrl(base: string, userId: string | null, token: string | undefined): string {
  const url = new URL(base);
  url.searchParams.set('userid', userId ?? GUEST_USER_ID);
  if (userId && token) url.searchParams.set('token', token);
  return url.toString();
}

/**
 * The live channel (spec 001 §7): connects, pings every 120 s, reconnects 1 s after a close, and
 * hands on each valid server message once (duplicate ids are dropped).
 */
export function openLiveChannel(options: LiveChannelOptions): LiveChannel {
  const create: SocketFactory = options.socket ?? ((url) => new WebSocket(url));
  const seen = duplicateFilter();
  let socket: WebSocket | null = null;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = async () => {
    let token: string | undefined;
    try {
      token = options.userId ? await options.token() : undefined;
    } catch {
      token = undefined;
    }
    if (closed) return;
    const current = create(channelUrl(options.url, options.userId, token));
    socket = current;
    current.onopen = () => {
      clearInterval(ping);
      ping = setInterval(() => {
        if (current.readyState === 1) current.send(JSON.stringify({ action: 'ping' }));
      }, TIMINGS.pingMs);
    };
    current.onmessage = (event: MessageEvent) => {
      let payload: unknown;
      try {
        payload = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = serverMessageSchema.safeParse(payload);
      if (!parsed.success || seen.seen(parsed.data.id)) return;
      options.onMessage(parsed.data);
    };
    current.onclose = () => {
      clearInterval(ping);
      if (closed || socket !== current) return;
      retry = setTimeout(() => void connect(), TIMINGS.socketReconnectMs);
    };
  };
  void connect();

  return {
    close: () => {
      closed = true;
      clearInterval(ping);
      clearTimeout(retry);
      socket?.close();
      socket = null;
    },
  };
}

/**
 * Listens to the live channel while mounted (and the deployment has one); `onMessage` sees every
 * server message once.
 */
export function useLiveMessages(onMessage: (message: ServerMessage) => void, enabled = true): void {
  const { data } = useConfig();
  const { user } = useAuth();
  const url = data?.realtimeUrl ?? null;
  const userId = user?.id ?? null;
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  }, [onMessage]);
  useEffect(() => {
    if (!enabled || !url || typeof WebSocket === 'undefined') return undefined;
    const channel = openLiveChannel({
      url,
      userId,
      token: currentAccessToken,
      onMessage: (message) => handler.current(message),
    });
    return () => channel.close();
  }, [enabled, url, userId]);
}
