import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TIMINGS } from '@shared/constants/limits';
import { AppProviders } from '../app/providers';
import { toasts } from '../lib/toast';
import { createTestQueryClient } from '../test/utils';

describe('toasts', () => {
  it('last 10 seconds by default', () => {
    const id = toasts.show({ message: 'Saved' });
    expect(toasts.getQueue().find((toast) => toast.id === id)?.duration).toBe(TIMINGS.toastMs);
    expect(TIMINGS.toastMs).toBe(10_000);
  });

  it('shows one toast at a time with its action, then the next', async () => {
    const reload = vi.fn();
    render(
      <AppProviders queryClient={createTestQueryClient()}>
        <span />
      </AppProviders>,
    );
    act(() => {
      toasts.show({
        message: 'Unexpected Error',
        severity: 'error',
        action: { label: 'Reload', onClick: reload },
      });
      toasts.show({ message: 'Second' });
    });
    // The snackbar's module loads with the first toast (the app preloads it once idle).
    expect(await screen.findByText('Unexpected Error')).toBeTruthy();
    expect(screen.queryByText('Second')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
    expect(await screen.findByText('Second')).toBeTruthy();
  });
});
