import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import { useTranslation } from '../lib/i18n';
import { LazyTooltip } from './LazyTooltip';

function CrownIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 7.5l4.5 3.6L12 4l4.5 7.1L21 7.5 19.2 18H4.8L3 7.5zM5 19.5h14V21H5v-1.5z" />
    </SvgIcon>
  );
}

/**
 * The verified mark (spec 001 §2, §4): the crown with its tooltip, the same wherever a verified
 * user is named (profile, user card, seller lists). It is focusable and opens its tooltip on touch,
 * and it sits above a card's stretched link so that hovering it shows the tooltip.
 */
export function VerifiedMark({ size = 24 }: { size?: number }) {
  const { t } = useTranslation();
  const label = t('common.verified');
  return (
    <LazyTooltip title={label} arrow enterTouchDelay={0}>
      <span
        role="img"
        aria-label={label}
        tabIndex={0}
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
    </LazyTooltip>
  );
}
