import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAuth, type SessionUser } from '../../../lib/auth';
import { lazyOverlay } from '../../../lib/lazyOverlay';

export function UserAvatar({ user, size = 36 }: { user: SessionUser; size?: number }) {
  const initial = (user.nick || user.name || user.email || '?').charAt(0).toUpperCase();
  return (
    <Avatar
      src={user.avatar ?? undefined}
      alt=""
      sx={{
        width: size,
        height: size,
        bgcolor: 'primary.main',
        fontSize: size * 0.45,
        fontWeight: 600,
      }}
    >
      {initial}
    </Avatar>
  );
}

export interface AccountMenuProps {
  anchorEl: HTMLElement | null;
  onClose: () => void;
  id?: string;
}

/**
 * The account menu and its logout confirmation (AccountMenuPopup.tsx): loaded on demand, out of
 * the first visit's download; mounted with the account button, so it is there before it opens.
 */
export const AccountMenu = lazyOverlay<AccountMenuProps>(async () => {
  const module = await import('./AccountMenuPopup');
  return module.AccountMenuPopup;
});

/** The account button of the top bar: the avatar, opening the account menu. */
export function AccountButton() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!user) return null;
  return (
    <>
      <Box
        component="button"
        type="button"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('account.menu.label')}
        aria-haspopup="menu"
        aria-expanded={Boolean(anchor)}
        aria-controls={anchor ? menuId : undefined}
        sx={{
          p: 0.25,
          border: 2,
          borderColor: anchor ? 'primary.main' : 'transparent',
          borderRadius: '50%',
          bgcolor: 'transparent',
          cursor: 'pointer',
          display: 'inline-flex',
          '&:hover': { borderColor: 'primary.light' },
        }}
      >
        <UserAvatar user={user} size={34} />
      </Box>
      <AccountMenu id={menuId} anchorEl={anchor} onClose={() => setAnchor(null)} />
    </>
  );
}
