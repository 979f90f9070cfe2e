import { afterEach, describe, expect, it, vi } from 'vitest';
import { channelUrl, openLiveChannel } from './liveChannel';

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
});
