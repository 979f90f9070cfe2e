import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import { lazy, Suspense, useEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from '../lib/i18n';

function CrownIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 7.5l4.5 3.6L12 4l4.5 7.1L21 7.5 19.2 18H4.8L3 7.5zM5 19.5h14V21H5v-1.5z" />
    </SvgIcon>
  );
}

/*
 * The tooltip (with Popper, its positioning engine) is ~13 KiB gzip that a first visit to a page
 * of verified sellers would otherwise download and run before anyone points at a crown: it loads
 * on the first hover, focus or touch of a mark.
 */
const Tooltip = lazy(() => import('@mui/material/Tooltip'));

/**
 * The verified mark (spec 001 §2, §4): the crown with its tooltip, the same wherever a verified
 * user is named (profile, user card, seller lists). It is focusable and opens its tooltip on touch,
 * and it sits above a card's stretched link so that hovering it shows the tooltip.
 */
export function VerifiedMark({ size = 24 }: { size?: number }) {
  const { t } = useTranslation();
  const label = t('common.verified');
  // null until first pointed at; then whether the tooltip shows.
  const [open, setOpen] = useState<boolean | null>(null);
  const armedByFocus = useRef(false);
  const markRef = useRef<HTMLSpanElement>(null);
  // Arming swaps the plain mark for the tooltip's: keep the keyboard focus on it.
  useEffect(() => {
    if (open !== null && armedByFocus.current) {
      armedByFocus.current = false;
      markRef.current?.focus();
    }
  }, [open]);

  const mark = (
    handlers: Partial<Record<'onMouseOver' | 'onFocus' | 'onTouchStart', () => void>>,
  ) => (
    <span
      ref={markRef}
      role="img"
      aria-label={label}
      tabIndex={0}
      {...handlers}
      style={{
        display: 'inline-flex',
        flexShrink: 0,
        lineHeight: 0,
        borderRadius: 6,
        position: 'relative',
        zIndex: 1,
      }}
    >
      <CrownIcon aria-hidden sx={{ fontSize: size, color: '#D9A400' }} />
    </span>
  );

  if (open === null) {
    const arm = () => setOpen(true);
    return mark({
      onMouseOver: arm,
      onTouchStart: arm,
      onFocus: () => {
        armedByFocus.current = true;
        arm();
      },
    });
  }
  const plain: ReactElement = mark({});
  return (
    <Suspense fallback={plain}>
      <Tooltip
        title={label}
        arrow
        enterTouchDelay={0}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
      >
        {plain}
      </Tooltip>
    </Suspense>
  );
}
