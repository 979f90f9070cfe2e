import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { createTestQueryClient } from '../test/utils';
import { LazyTooltip } from './LazyTooltip';

function renderLink(onFocus = vi.fn()) {
  render(
    <AppProviders queryClient={createTestQueryClient()}>
      <LazyTooltip title="Instagram">
        <a href="https://example.com/ana" aria-label="Ana on Instagram" onFocus={onFocus}>
          IG
        </a>
      </LazyTooltip>
    </AppProviders>,
  );
  return screen.getByRole('link', { name: 'Ana on Instagram' });
}

describe('LazyTooltip', () => {
  it('renders its element alone, and shows the tooltip on the first hover', async () => {
    const link = renderLink();
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseOver(link);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Instagram');
    expect(screen.getByRole('link', { name: 'Ana on Instagram' }).getAttribute('href')).toBe(
      'https://example.com/ana',
    );
  });

  it("keeps the element's own handlers and the keyboard focus when the focus loads it", async () => {
    const onFocus = vi.fn();
    renderLink(onFocus);
    await userEvent.tab();
    expect(onFocus).toHaveBeenCalled();
    expect((await screen.findByRole('tooltip')).textContent).toBe('Instagram');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Ana on Instagram' }));
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });
});
