import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

function CrownIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 7.5l4.5 3.6L12 4l4.5 7.1L21 7.5 19.2 18H4.8L3 7.5zM5 19.5h14V21H5v-1.5z" />
    </SvgIcon>
  );
}

/** The verified (crown) icon with its tooltip (spec 001 §2). */
export function VerifiedCrown({ size = 24 }: { size?: number }) {
  const { t } = useTranslation();
  const label = t('profiles.verified');
  return (
    <Tooltip title={label} arrow enterTouchDelay={0}>
      <span
        role="img"
        aria-label={label}
        tabIndex={0}
        style={{ display: 'inline-flex', lineHeight: 0, borderRadius: 6 }}
      >
        <CrownIcon aria-hidden sx={{ fontSize: size, color: '#D9A400' }} />
      </span>
    </Tooltip>
  );
}
