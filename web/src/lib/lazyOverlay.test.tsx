import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyOverlay, OVERLAY_PRELOAD_DELAY_MS, preloadOverlaysWhenIdle } from './lazyOverlay';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyOverlay', () => {
  it('renders nothing until its module has loaded, then the component with its props', async () => {
    let resolve: (component: typeof Hello) => void = () => undefined;
    const load = vi.fn(
      () =>
        new Promise<typeof Hello>((done) => {
          resolve = done;
        }),
    );
    const Overlay = lazyOverlay(load);
    const { container } = render(<Overlay name="Ada" />);
    expect(container.innerHTML).toBe('');
    resolve(Hello);
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledOnce();
  });

  it('once preloaded, shows on its first render (no visible delay) and loads only once', async () => {
    const load = vi.fn(async () => Hello);
    const Overlay = lazyOverlay(load);
    await Overlay.preload();
    render(<Overlay name="Grace" />);
    expect(screen.getByText('Hello Grace')).toBeTruthy();
    await Overlay.preload();
    expect(load).toHaveBeenCalledOnce();
  });

  it('renders nothing if the load fails, and tries again on the next mount', async () => {
    const load = vi
      .fn<() => Promise<typeof Hello>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(Hello);
    const Overlay = lazyOverlay(load);
    const first = render(<Overlay name="Alan" />);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(first.container.innerHTML).toBe('');
    first.unmount();
    render(<Overlay name="Alan" />);
    expect(await screen.findByText('Hello Alan')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('preloads every overlay once the browser is idle, and not if cancelled', async () => {
    vi.useFakeTimers();
    try {
      const load = vi.fn(async () => Hello);
      lazyOverlay(load);
      const cancel = preloadOverlaysWhenIdle();
      cancel();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(load).not.toHaveBeenCalled();
      preloadOverlaysWhenIdle();
      expect(load).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(load).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits for the page to load, then a quiet moment, before fetching anything', async () => {
    vi.useFakeTimers();
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    try {
      const load = vi.fn(async () => Hello);
      lazyOverlay(load);
      const cancel = preloadOverlaysWhenIdle();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(load).not.toHaveBeenCalled();
      readyState.mockReturnValue('complete');
      window.dispatchEvent(new Event('load'));
      await vi.advanceTimersByTimeAsync(OVERLAY_PRELOAD_DELAY_MS - 100);
      expect(load).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(load).toHaveBeenCalledOnce();
      cancel();
    } finally {
      readyState.mockRestore();
      vi.useRealTimers();
    }
  });

  it('shows its fallback until loaded; one kept from idle preloading loads only when rendered', async () => {
    vi.useFakeTimers();
    try {
      let resolve: (component: typeof Hello) => void = () => undefined;
      const load = vi.fn(
        () =>
          new Promise<typeof Hello>((done) => {
            resolve = done;
          }),
      );
      const Overlay = lazyOverlay(load, {
        preloadWhenIdle: false,
        fallback: ({ name }) => <p>Waiting for {name}</p>,
      });
      const cancel = preloadOverlaysWhenIdle();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(load).not.toHaveBeenCalled();
      cancel();
      vi.useRealTimers();
      render(<Overlay name="Ada" />);
      expect(screen.getByText('Waiting for Ada')).toBeTruthy();
      resolve(Hello);
      expect(await screen.findByText('Hello Ada')).toBeTruthy();
      expect(load).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});
