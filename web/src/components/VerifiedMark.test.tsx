import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { createTestQueryClient } from '../test/utils';
import { VerifiedMark } from './VerifiedMark';

function renderMark() {
  render(
    <AppProviders queryClient={createTestQueryClient()}>
      <VerifiedMark size={18} />
    </AppProviders>,
  );
  return screen.getByRole('img', { name: 'Verified' });
}

describe('the verified mark', () => {
  it('is the crown, named Verified, focusable, with the same text as its tooltip on hover', async () => {
    const mark = renderMark();
    expect(mark.querySelector('svg path')?.getAttribute('d')).toMatch(/^M3 7\.5l4\.5 3\.6/);
    expect(mark.tabIndex).toBe(0);
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseOver(mark);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Verified');
  });

  it('keeps the keyboard focus when its tooltip loads on the first focus', async () => {
    renderMark();
    await userEvent.tab();
    // The tooltip's module loads on that first focus; the mark that shows it keeps the focus.
    expect((await screen.findByRole('tooltip')).textContent).toBe('Verified');
    expect(document.activeElement).toBe(screen.getByRole('img', { name: 'Verified' }));
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });
});
