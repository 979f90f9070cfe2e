import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  channelUrl,
  openLiveChannel,
  openLiveChannelCount,
  subscribeLiveChannel,
} from './liveChannel';

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const progress = {
  type: 'item.creation',
  id: 'm-1',
  item_id: 'item-1',
  status: 'uploading-token',
  written: 1,
  total: 3,
  error: null,
};

afterEach(() => {
  FakeSocket.all = [];
  vi.useRealTimers();
});

describe('live channel', () => {
  it('names the user and token, or the guest', () => {
    expect(channelUrl('ws://localhost:3001', 'user-1', 'tok')).toBe(
      'ws://localhost:3001/?userid=user-1&token=tok',
    );
    expect(channelUrl('wss://rt.example.com/prod', null, undefined)).toBe(
      'wss://rt.example.com/prod?userid=%3Cannon%3E',
    );
  });

  it('pings every 120 s, drops duplicate messages and reconnects 1 s after a close', async () => {
    vi.useFakeTimers();
    const onMessage = vi.fn();
    const channel = openLiveChannel({
      url: 'ws://localhost:3001',
      userId: 'user-1',
      token: async () => 'tok',
      onMessage,
      socket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0];
    expect(first?.url).toContain('userid=user-1&token=tok');
    first?.open();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(first?.sent).toEqual([JSON.stringify({ action: 'ping' })]);

    first?.receive(progress);
    first?.receive(progress);
    first?.receive({ type: 'unknown', id: 'x' });
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage).toHaveBeenCalledWith(expect.objectContaining({ written: 1, total: 3 }));

    first?.onclose?.();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);

    channel.close();
    FakeSocket.all[1]?.onclose?.();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('tells when the socket opens, and that a later opening is a reconnect', async () => {
    vi.useFakeTimers();
    const onOpen = vi.fn();
    const channel = openLiveChannel({
      url: 'ws://localhost:3001',
      userId: 'user-1',
      token: async () => 'tok',
      onMessage: vi.fn(),
      onOpen,
      socket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.all[0]?.open();
    expect(onOpen).toHaveBeenLastCalledWith({ reconnect: false });
    FakeSocket.all[0]?.onclose?.();
    await vi.advanceTimersByTimeAsync(1_000);
    FakeSocket.all[1]?.open();
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenLastCalledWith({ reconnect: true });
    channel.close();
  });
});

describe('the shared live channel', () => {
  const options = {
    url: 'ws://localhost:3001',
    userId: 'user-1',
    token: async () => 'tok',
    socket: (url: string) => new FakeSocket(url) as unknown as WebSocket,
  };
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('opens one socket for every subscriber and hands each message to all of them', async () => {
    const first = { onMessage: vi.fn(), onOpen: vi.fn() };
    const second = { onMessage: vi.fn(), onOpen: vi.fn() };
    const leaveFirst = subscribeLiveChannel(options, first);
    const leaveSecond = subscribeLiveChannel(options, second);
    await flush();
    expect(FakeSocket.all).toHaveLength(1);
    expect(openLiveChannelCount()).toBe(1);
    FakeSocket.all[0]?.open();
    expect(first.onOpen).toHaveBeenCalledWith({ reconnect: false });
    expect(second.onOpen).toHaveBeenCalledWith({ reconnect: false });
    FakeSocket.all[0]?.receive(progress);
    FakeSocket.all[0]?.receive(progress);
    expect(first.onMessage).toHaveBeenCalledTimes(1);
    expect(second.onMessage).toHaveBeenCalledTimes(1);

    // One leaves: the other keeps the socket.
    leaveFirst();
    await flush();
    expect(FakeSocket.all[0]?.readyState).toBe(1);
    FakeSocket.all[0]?.receive({ ...progress, id: 'm-2' });
    expect(first.onMessage).toHaveBeenCalledTimes(1);
    expect(second.onMessage).toHaveBeenCalledTimes(2);

    // The last one leaves: the socket closes.
    leaveSecond();
    leaveSecond();
    await flush();
    expect(FakeSocket.all[0]?.readyState).toBe(3);
    expect(openLiveChannelCount()).toBe(0);
  });

  it('keeps the socket when a subscriber replaces the last one in the same task', async () => {
    const leave = subscribeLiveChannel(options, { onMessage: vi.fn() });
    await flush();
    leave();
    const onMessage = vi.fn();
    const leaveNext = subscribeLiveChannel(options, { onMessage });
    await flush();
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]?.readyState).not.toBe(3);
    FakeSocket.all[0]?.receive(progress);
    expect(onMessage).toHaveBeenCalledOnce();
    leaveNext();
    await flush();
    expect(FakeSocket.all[0]?.readyState).toBe(3);
  });

  it('tells every subscriber of a reconnect, so each refetches what it shows', async () => {
    vi.useFakeTimers();
    const onOpen = vi.fn();
    const leave = subscribeLiveChannel(options, { onMessage: vi.fn(), onOpen });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.all[0]?.open();
    FakeSocket.all[0]?.onclose?.();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]?.open();
    expect(onOpen.mock.calls).toEqual([[{ reconnect: false }], [{ reconnect: true }]]);
    leave();
    await vi.advanceTimersByTimeAsync(0);
    expect(openLiveChannelCount()).toBe(0);
  });

  it('a subscriber that throws does not keep the others from hearing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onMessage = vi.fn();
    const leaveBad = subscribeLiveChannel(options, {
      onMessage: () => {
        throw new Error('boom');
      },
    });
    const leave = subscribeLiveChannel(options, { onMessage });
    await flush();
    FakeSocket.all[0]?.receive(progress);
    expect(onMessage).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalled();
    leaveBad();
    leave();
    await flush();
  });

  it('subscribes to the topics its subscribers ask for, once each, and again after a reconnect', async () => {
    vi.useFakeTimers();
    const subscribe = (topic: string) => JSON.stringify({ action: 'subscribe', topic });
    const unsubscribe = (topic: string) => JSON.stringify({ action: 'unsubscribe', topic });
    const lot = 'offering:oF01JD10RDV1EWZEPEEXJ1T6BJ7N' as const;
    const other = 'offering:oF01JDY2KSAAE0CESPPXH0R8DV3Y' as const;
    // Asked for before the socket opened: sent on opening.
    const leavePanel = subscribeLiveChannel(options, { onMessage: vi.fn(), topics: [lot] });
    const leaveCopy = subscribeLiveChannel(options, { onMessage: vi.fn(), topics: [lot] });
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0];
    expect(first?.sent).toEqual([]);
    first?.open();
    expect(first?.sent).toEqual([subscribe(lot)]);
    // Asked for while open: sent at once.
    const leaveOther = subscribeLiveChannel(options, { onMessage: vi.fn(), topics: [other] });
    expect(first?.sent).toEqual([subscribe(lot), subscribe(other)]);
    // A reconnect is a new connection without subscriptions.
    first?.onclose?.();
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeSocket.all[1];
    second?.open();
    expect(second?.sent).toEqual([subscribe(lot), subscribe(other)]);
    // The topic is left when its last subscriber leaves.
    leaveCopy();
    expect(second?.sent).toHaveLength(2);
    leavePanel();
    expect(second?.sent).toEqual([subscribe(lot), subscribe(other), unsubscribe(lot)]);
    leaveOther();
    await vi.advanceTimersByTimeAsync(0);
    expect(openLiveChannelCount()).toBe(0);
  });

  it('opens another channel for another user (a login), and closes the guest one', async () => {
    const leaveGuest = subscribeLiveChannel({ ...options, userId: null }, { onMessage: vi.fn() });
    await flush();
    expect(FakeSocket.all[0]?.url).toContain('userid=%3Cannon%3E');
    leaveGuest();
    const leaveUser = subscribeLiveChannel(options, { onMessage: vi.fn() });
    await flush();
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[0]?.readyState).toBe(3);
    expect(FakeSocket.all[1]?.url).toContain('userid=user-1');
    expect(openLiveChannelCount()).toBe(1);
    leaveUser();
    await flush();
  });
});
