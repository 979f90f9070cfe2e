import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ServerMessage } from '@shared/realtime/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStateFixture, configFixture, userFixture } from '../test/fixtures';
import { FakeSocket } from '../test/paymentFixtures';
import { signedInSession } from '../test/profileFixtures';
import { createTestQueryClient } from '../test/utils';
import { AuthContext } from './auth';
import { configQueryKey } from './config';
import { openLiveChannelCount, useLiveMessages, type LiveOpenInfo } from './liveChannel';

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(async () => signedInSession),
}));
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

function Listener({
  onMessage,
  onOpen,
}: {
  onMessage: (message: ServerMessage) => void;
  onOpen?: (info: LiveOpenInfo) => void;
}) {
  useLiveMessages(onMessage, true, { onOpen });
  return null;
}

function renderListeners(children: ReactNode) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(configQueryKey, {
    ...configFixture(),
    realtimeUrl: 'ws://localhost:3001',
  });
  const auth = authStateFixture({ status: 'user', user: userFixture({ id: 'user-1' }) });
  const wrap = (inner: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>{inner}</AuthContext.Provider>
    </QueryClientProvider>
  );
  const view = render(wrap(children));
  return { ...view, rerender: (next: ReactNode) => view.rerender(wrap(next)) };
}

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(async () => {
  await flush();
});

describe('useLiveMessages', () => {
  it('shares one socket between every listener of the tab', async () => {
    const bell = vi.fn();
    const page = vi.fn();
    const pageOpen = vi.fn();
    const view = renderListeners(
      <>
        <Listener onMessage={bell} />
        <Listener onMessage={page} onOpen={pageOpen} />
      </>,
    );
    // The socket opens once the access token is read (lib/authClient.ts).
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(FakeSocket.all[0]?.url).toContain('userid=user-1&token=access-token');
    act(() => FakeSocket.all[0]?.onopen?.());
    expect(pageOpen).toHaveBeenCalledWith({ reconnect: false });
    act(() => FakeSocket.broadcast({ type: 'payments.cards_updated', id: 'm-1' }));
    expect(bell).toHaveBeenCalledOnce();
    expect(page).toHaveBeenCalledOnce();

    // The page goes; the bell keeps listening on the same socket.
    view.rerender(<Listener onMessage={bell} />);
    await flush();
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]?.readyState).not.toBe(3);
    act(() => FakeSocket.broadcast({ type: 'payments.cards_updated', id: 'm-2' }));
    expect(bell).toHaveBeenCalledTimes(2);
    expect(page).toHaveBeenCalledOnce();

    view.unmount();
    await flush();
    expect(FakeSocket.all[0]?.readyState).toBe(3);
    expect(openLiveChannelCount()).toBe(0);
  });
});
