import type { TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  lazy,
  Suspense,
  useCallback,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type Ref,
  type TouchEvent,
} from 'react';

/*
 * Material UI's Tooltip (with Popper, its positioning engine) is ~7–13 KiB gzip that a first
 * visit would otherwise download and run before anyone points at anything: it loads on the first
 * hover, focus or touch of the element it describes.
 */
const Tooltip = lazy(() => import('@mui/material/Tooltip'));

interface ChildProps {
  ref?: Ref<HTMLElement>;
  onMouseOver?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onTouchStart?: (event: TouchEvent<HTMLElement>) => void;
}

type LazyTooltipProps = Omit<TooltipProps, 'children' | 'open' | 'onOpen' | 'onClose'> & {
  children: ReactElement<ChildProps>;
};

/**
 * A Material UI Tooltip whose module loads when first needed. Until then `children` renders as it
 * is; the first hover, focus or touch loads the tooltip and shows it at once. The element is
 * rendered anew inside the tooltip then: if the focus armed it, the new element takes the focus.
 */
export function LazyTooltip({ children, ...tooltip }: LazyTooltipProps) {
  // null until first used; then whether the tooltip shows.
  const [open, setOpen] = useState<boolean | null>(null);
  // Whether the focus armed it: the element rendered anew takes the focus then, the stand-in
  // shown while the module loads and then the one inside the tooltip.
  const [focusPending, setFocusPending] = useState(false);
  const focusStandIn = useCallback(
    (node: HTMLElement | null) => {
      if (node && focusPending) node.focus();
    },
    [focusPending],
  );
  const focusWrapped = useCallback(
    (node: HTMLElement | null) => {
      if (node && focusPending) {
        node.focus();
        setFocusPending(false);
      }
    },
    [focusPending],
  );

  if (open === null) {
    const { onMouseOver, onFocus, onTouchStart } = children.props;
    return cloneElement(children, {
      onMouseOver: (event: MouseEvent<HTMLElement>) => {
        onMouseOver?.(event);
        setOpen(true);
      },
      onTouchStart: (event: TouchEvent<HTMLElement>) => {
        onTouchStart?.(event);
        setOpen(true);
      },
      onFocus: (event: FocusEvent<HTMLElement>) => {
        onFocus?.(event);
        setFocusPending(true);
        setOpen(true);
      },
    });
  }
  return (
    <Suspense fallback={cloneElement(children, { ref: focusStandIn })}>
      <Tooltip {...tooltip} open={open} onOpen={() => setOpen(true)} onClose={() => setOpen(false)}>
        {cloneElement(children, { ref: focusWrapped })}
      </Tooltip>
    </Suspense>
  );
}
