import { TIMINGS } from '@shared/constants/limits';

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface Toast {
  id: number;
  message: string;
  severity: ToastSeverity;
  action?: ToastAction;
  /** Milliseconds on screen; 10 s by default (spec 001 §8). */
  duration: number;
}

export type ToastInput = Omit<Toast, 'id' | 'duration' | 'severity'> &
  Partial<Pick<Toast, 'duration' | 'severity'>>;

type Listener = (queue: readonly Toast[]) => void;

/**
 * A tiny toast queue usable from anywhere (components, query callbacks). <Toaster /> shows the
 * first toast of the queue; the next one appears when it closes.
 */
function createToastStore() {
  let queue: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((listener) => listener(queue));
  return {
    show(input: ToastInput): number {
      const toast: Toast = {
        severity: 'info',
        duration: TIMINGS.toastMs,
        ...input,
        id: nextId++,
      };
      queue = [...queue, toast];
      emit();
      return toast.id;
    },
    dismiss(id: number): void {
      queue = queue.filter((toast) => toast.id !== id);
      emit();
    },
    clear(): void {
      queue = [];
      emit();
    },
    getQueue: (): readonly Toast[] => queue,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const toasts = createToastStore();
