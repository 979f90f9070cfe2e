import { TIMINGS } from '@shared/constants/limits';
import {
  duplicateFilter,
  GUEST_USER_ID,
  serverMessageSchema,
  type ClientMessage,
  type ServerMessage,
  type Topic,
} from '@shared/realtime/messages';
import { useEffect, useRef } from 'react';
import { useAuth } from './auth';
import { currentAccessToken } from './authClient';
import { useConfig } from './config';

type SocketFactory = (url: string) => WebSocket;

/** What a socket's opening tells: `reconnect` is true from the second opening on. */
export interface LiveOpenInfo {
  reconnect: boolean;
}

export interface LiveChannelOptions {
  /** The channel's base URL (GET /api/config `realtimeUrl`: wss:// in AWS, ws://…:3001 locally). */
  url: string;
  /** The caller's user id; null connects as a guest. */
  userId: string | null;
  /** The access token the channel checks on connect (read again on each reconnect). */
  token: () => Promise<string | undefined>;
  onMessage: (message: ServerMessage) => void;
  /**
   * The socket opened: the first time, and again after each reconnect (`reconnect: true`), when
   * whatever was sent while it was closed is lost: listeners refetch what they show.
   */
  onOpen?: (info: LiveOpenInfo) => void;
  /** For tests. */
  socket?: SocketFactory;
}

export interface LiveChannel {
  close: () => void;
  /**
   * Listens to a topic (`offering:<id>`: the spec's multicast events) while at least one caller
   * asked for it: `subscribe` goes out now if the socket is open, and again on every opening (a
   * reconnect starts a connection without subscriptions). Counted: the last `removeTopic` sends
   * `unsubscribe`.
   */
  addTopic: (topic: Topic) => void;
  removeTopic: (topic: Topic) => void;
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
 * hands on each valid server message once (duplicate ids are dropped). The app opens it through
 * {@link subscribeLiveChannel}, which shares one per tab.
 */
export function openLiveChannel(options: LiveChannelOptions): LiveChannel {
  const create: SocketFactory = options.socket ?? ((url) => new WebSocket(url));
  const seen = duplicateFilter();
  let socket: WebSocket | null = null;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let opened = false;
  const topics = new Map<Topic, number>();
  const sendTo = (target: WebSocket, message: ClientMessage) =>
    target.send(JSON.stringify(message));
  /** Sends now when the socket is open; otherwise the next opening subscribes. */
  const sendIfOpen = (message: ClientMessage) => {
    if (socket !== null && socket.readyState === 1) sendTo(socket, message);
  };

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
      if (closed || socket !== current) return;
      clearInterval(ping);
      ping = setInterval(() => {
        if (current.readyState === 1) current.send(JSON.stringify({ action: 'ping' }));
      }, TIMINGS.pingMs);
      for (const topic of topics.keys()) sendTo(current, { action: 'subscribe', topic });
      const reconnect = opened;
      opened = true;
      options.onOpen?.({ reconnect });
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
    addTopic: (topic) => {
      const count = topics.get(topic) ?? 0;
      topics.set(topic, count + 1);
      if (count === 0) sendIfOpen({ action: 'subscribe', topic });
    },
    removeTopic: (topic) => {
      const count = topics.get(topic) ?? 0;
      if (count === 0) return;
      if (count > 1) {
        topics.set(topic, count - 1);
        return;
      }
      topics.delete(topic);
      sendIfOpen({ action: 'unsubscribe', topic });
    },
  };
}

/** One listener of the shared channel. */
export interface LiveSubscriber {
  onMessage: (message: ServerMessage) => void;
  /** Topics to listen to besides the user's own channel (e.g. `offering:<id>`). */
  topics?: readonly Topic[];
  /** The shared socket opened (again, after a reconnect: `reconnect: true`). */
  onOpen?: (info: LiveOpenInfo) => void;
}

export type SharedChannelOptions = Omit<LiveChannelOptions, 'onMessage' | 'onOpen'>;

interface SharedChannel {
  channel: LiveChannel;
  subscribers: Set<LiveSubscriber>;
}

/** The tab's open channels, by URL and user: one at a time in practice (the session's). */
const shared = new Map<string, SharedChannel>();

/** Hands `call` to every subscriber; one that throws does not keep the others from hearing. */
function tellEach(subscribers: Set<LiveSubscriber>, call: (subscriber: LiveSubscriber) => void) {
  for (const subscriber of [...subscribers]) {
    try {
      call(subscriber);
    } catch (error) {
      console.error(error);
    }
  }
}

/**
 * Listens to the tab's one live channel for `options.url` and `options.userId`: the first
 * subscriber opens it, the others share its socket, and it closes once the last one has left
 * (after the current task, so a page replacing another in one render keeps the socket). Returns
 * the unsubscribe.
 */
export function subscribeLiveChannel(
  options: SharedChannelOptions,
  subscriber: LiveSubscriber,
): () => void {
  const key = `${options.url}\n${options.userId ?? GUEST_USER_ID}`;
  let entry = shared.get(key);
  if (!entry) {
    const subscribers = new Set<LiveSubscriber>();
    const channel = openLiveChannel({
      ...options,
      onMessage: (message) => tellEach(subscribers, (each) => each.onMessage(message)),
      onOpen: (info) => tellEach(subscribers, (each) => each.onOpen?.(info)),
    });
    entry = { channel, subscribers };
    shared.set(key, entry);
  }
  const current = entry;
  current.subscribers.add(subscriber);
  const topics = [...(subscriber.topics ?? [])];
  for (const topic of topics) current.channel.addTopic(topic);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    current.subscribers.delete(subscriber);
    for (const topic of topics) current.channel.removeTopic(topic);
    if (current.subscribers.size > 0) return;
    queueMicrotask(() => {
      if (current.subscribers.size > 0 || shared.get(key) !== current) return;
      shared.delete(key);
      current.channel.close();
    });
  };
}

/** How many channels the tab has open (for tests). */
export function openLiveChannelCount(): number {
  return shared.size;
}

export interface LiveMessagesOptions {
  /**
   * The socket opened again after a reconnect (`reconnect: true`), or for the first time: what a
   * listener shows may have changed while it was closed.
   */
  onOpen?: (info: LiveOpenInfo) => void;
  /**
   * Topics to subscribe to while mounted (`offering:<id>`: an auction's bids, extensions and
   * phase); their messages come to `onMessage` with the rest.
   */
  topics?: readonly Topic[];
}

/**
 * Listens to the live channel while mounted (and the deployment has one); `onMessage` sees every
 * server message once. Every listener of a tab shares one socket.
 */
export function useLiveMessages(
  onMessage: (message: ServerMessage) => void,
  enabled = true,
  options: LiveMessagesOptions = {},
): void {
  const { data } = useConfig();
  const { user } = useAuth();
  const url = data?.realtimeUrl ?? null;
  const userId = user?.id ?? null;
  const handler = useRef(onMessage);
  const openHandler = useRef(options.onOpen);
  const { onOpen } = options;
  // One string for the effect: a new array of the same topics keeps the subscription.
  const topicList = (options.topics ?? []).join(' ');
  useEffect(() => {
    handler.current = onMessage;
    openHandler.current = onOpen;
  }, [onMessage, onOpen]);
  useEffect(() => {
    if (!enabled || !url || typeof WebSocket === 'undefined') return undefined;
    const topics = topicList === '' ? [] : (topicList.split(' ') as Topic[]);
    return subscribeLiveChannel(
      { url, userId, token: currentAccessToken },
      {
        onMessage: (message) => handler.current(message),
        onOpen: (info) => openHandler.current?.(info),
        topics,
      },
    );
  }, [enabled, url, userId, topicList]);
}
