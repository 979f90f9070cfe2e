import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LeaveGuardDialog } from '../components/LeaveGuardDialog';
import { AppProviders } from '../app/providers';
import { createTestQueryClient } from '../test/utils';
import { useLeaveGuard } from './useLeaveGuard';

function fireBeforeUnload(): Event {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event;
}

function HookProbe({ active }: { active: boolean }) {
  const guard = useLeaveGuard(active);
  return (
    <div>
      <Link to="/elsewhere">Go elsewhere</Link>
      <span>{guard.blocked ? 'blocked' : 'free'}</span>
      <button onClick={guard.stay}>stay</button>
      <button onClick={guard.leave}>leave</button>
    </div>
  );
}

function renderProbe(active: boolean) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <HookProbe active={active} /> },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('useLeaveGuard', () => {
  it('does nothing while no process is in progress', async () => {
    const router = renderProbe(false);
    expect(fireBeforeUnload().defaultPrevented).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks the browser to confirm unloading while active', () => {
    renderProbe(true);
    expect(fireBeforeUnload().defaultPrevented).toBe(true);
  });

  it('holds in-app navigation until the user decides', async () => {
    const router = renderProbe(true);
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    expect(screen.getByText('blocked')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');

    await userEvent.click(screen.getByRole('button', { name: 'stay' }));
    expect(screen.getByText('free')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');

    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    await userEvent.click(screen.getByRole('button', { name: 'leave' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('stops guarding when the process ends', async () => {
    function Toggle() {
      const [active, setActive] = useState(true);
      useLeaveGuard(active);
      return <button onClick={() => setActive(false)}>finish</button>;
    }
    const router = createMemoryRouter([{ path: '/', element: <Toggle /> }]);
    render(<RouterProvider router={router} />);
    expect(fireBeforeUnload().defaultPrevented).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'finish' }));
    expect(fireBeforeUnload().defaultPrevented).toBe(false);
  });
});

describe('LeaveGuardDialog', () => {
  it('shows the process-in-progress alert and leaves on confirmation', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <>
              <LeaveGuardDialog active />
              <Link to="/elsewhere">Go elsewhere</Link>
            </>
          ),
        },
        { path: '/elsewhere', element: <p>Elsewhere</p> },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <AppProviders queryClient={createTestQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'A process is in progress' });
    expect(dialog).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
