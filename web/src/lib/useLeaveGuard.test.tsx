import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LeaveGuardDialog } from '../components/LeaveGuardDialog';
import { renderRoute } from '../test/utils';
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
  return renderRoute('/', {
    routes: [
      { path: '/', element: <HookProbe active={active} /> },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
  }).router;
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

  it('holds the browser back button until the user decides, and goes back on leave', async () => {
    const { router } = renderRoute('/start', {
      routes: [
        { path: '/start', element: <Link to="/form">Open the form</Link> },
        { path: '/form', element: <HookProbe active /> },
        { path: '/elsewhere', element: <p>Elsewhere</p> },
      ],
    });
    await userEvent.click(screen.getByRole('link', { name: 'Open the form' }));
    expect(router.state.location.pathname).toBe('/form');

    await router.go(-1);
    expect(screen.getByText('blocked')).toBeTruthy();
    // The back step was undone: the form is still on screen, at its address.
    expect(router.state.location.pathname).toBe('/form');

    await userEvent.click(screen.getByRole('button', { name: 'stay' }));
    expect(screen.getByText('free')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/form');

    await router.go(-1);
    await userEvent.click(screen.getByRole('button', { name: 'leave' }));
    expect(router.state.location.pathname).toBe('/start');
    expect(screen.getByRole('link', { name: 'Open the form' })).toBeTruthy();
  });

  it('guards the next navigation too after the user left once', async () => {
    const { router } = renderRoute('/', {
      routes: [
        {
          element: (
            <>
              <HookProbe active />
              <Outlet />
            </>
          ),
          children: [
            { path: '/', element: <p>Start</p> },
            { path: '/elsewhere', element: <p>Elsewhere</p> },
          ],
        },
      ],
    });
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    await userEvent.click(screen.getByRole('button', { name: 'leave' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
    await router.go(-1);
    expect(screen.getByText('blocked')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    await router.navigate('/');
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('holds a navigation made in code as it holds a link', async () => {
    const router = renderProbe(true);
    await router.navigate('/elsewhere');
    expect(screen.getByText('blocked')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    await userEvent.click(screen.getByRole('button', { name: 'leave' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(screen.getByText('Elsewhere')).toBeTruthy();
  });

  it('lets a change of hash through: the page stays the same', async () => {
    const router = renderProbe(true);
    await router.navigate('/#details');
    expect(screen.getByText('free')).toBeTruthy();
    expect(router.state.location.hash).toBe('#details');
  });

  it('stops guarding when the process ends', async () => {
    function Toggle() {
      const [active, setActive] = useState(true);
      useLeaveGuard(active);
      return <button onClick={() => setActive(false)}>finish</button>;
    }
    renderRoute('/', { routes: [{ path: '/', element: <Toggle /> }] });
    expect(fireBeforeUnload().defaultPrevented).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'finish' }));
    expect(fireBeforeUnload().defaultPrevented).toBe(false);
  });
});

describe('LeaveGuardDialog', () => {
  it('shows the process-in-progress alert and leaves on confirmation', async () => {
    const { router } = renderRoute('/', {
      routes: [
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
    });
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'A process is in progress' });
    expect(dialog).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
