import EditRoundedIcon from '@mui/icons-material/EditRounded';
import LogoutRoundedIcon from '@mui/icons-material/LogoutRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { isOnboarded } from '@shared/onboarding';
import { useAuth } from '../../../lib/auth';
import { becomeMinterModal } from '../../../lib/becomeMinterStore';
import { useSwitches } from '../../../lib/config';
import { editProfileModal } from '../../../lib/editProfileStore';
import { useOwnProfile } from '../../../lib/ownProfile';
import { ACCOUNT_MENU_ITEMS } from '../accountItems';
import { LogoutDialog } from './LogoutDialog';
import { UserAvatar, type AccountMenuProps } from './AccountMenu';

/**
 * The account menu (spec 001 §2): "logged in as @nick", profile (labelled by the account type),
 * activity, settings (each once its page exists) and logout, which asks for confirmation first.
 * Where only companies may mint and the user is not one, the profile item opens the profile
 * editor instead of the public profile. With card payments on, "Become a seller" (or "Seller
 * account" once onboarded) opens the become-minter modal; like the minter option (001 §6), it is
 * offered only to companies where only companies mint.
 */
export function AccountMenuPopup({ anchorEl, onClose, id }: AccountMenuProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { companyOnlyMinting, fiat } = useSwitches();
  const profile = useOwnProfile(user?.id ?? null);
  const [confirming, setConfirming] = useState(false);
  if (!user) return null;
  const userOption = profile.data?.user_option;
  const editInstead = companyOnlyMinting && userOption !== 'company';
  const sellerItem = fiat && !editInstead;
  const seller = isOnboarded(profile.data?.onboarding_status);
  // The profile item needs the nick (empty until the session names it) unless it opens the editor.
  const items = ACCOUNT_MENU_ITEMS.filter(
    (item) => item.ready && (item.key !== 'profile' || user.nick !== '' || editInstead),
  ).map((item) => (item.key === 'profile' ? { ...item, to: `/${user.nick}` } : item));
  const label = (key: (typeof items)[number]['key']) =>
    key !== 'profile'
      ? t(`account.menu.${key}`)
      : userOption === 'company'
        ? t('account.menu.profileCompany')
        : userOption === 'individual'
          ? t('account.menu.profileIndividual')
          : t('account.menu.profile');
  const who = user.nick ? `@${user.nick}` : user.email;
  return (
    <>
      <Menu
        id={id}
        anchorEl={anchorEl}
        open={Boolean(anchorEl)}
        onClose={onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { mt: 1, minWidth: 240, borderRadius: 3 } } }}
      >
        <Box sx={{ px: 2, py: 1.5, display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <UserAvatar user={user} size={40} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary" component="p">
              {t('account.menu.loggedInAs')}
            </Typography>
            <Typography sx={{ fontWeight: 600 }} noWrap>
              {who}
            </Typography>
          </Box>
        </Box>
        <Divider />
        {items.map((item) =>
          item.key === 'profile' && editInstead ? (
            <MenuItem
              key={item.key}
              onClick={() => {
                onClose();
                editProfileModal.open();
              }}
            >
              <ListItemIcon>{item.icon}</ListItemIcon>
              {label(item.key)}
            </MenuItem>
          ) : (
            <MenuItem key={item.key} component={RouterLink} to={item.to} onClick={onClose}>
              <ListItemIcon>{item.icon}</ListItemIcon>
              {label(item.key)}
            </MenuItem>
          ),
        )}
        {sellerItem ? (
          <MenuItem
            onClick={() => {
              onClose();
              becomeMinterModal.open();
            }}
          >
            <ListItemIcon>
              <StorefrontRoundedIcon fontSize="small" />
            </ListItemIcon>
            {seller ? t('account.menu.sellerAccount') : t('account.menu.becomeSeller')}
          </MenuItem>
        ) : null}
        <MenuItem
          onClick={() => {
            onClose();
            editProfileModal.open();
          }}
        >
          <ListItemIcon>
            <EditRoundedIcon fontSize="small" />
          </ListItemIcon>
          {t('account.menu.editProfile')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            onClose();
            setConfirming(true);
          }}
        >
          <ListItemIcon>
            <LogoutRoundedIcon fontSize="small" />
          </ListItemIcon>
          {t('account.menu.logout')}
        </MenuItem>
      </Menu>
      <LogoutDialog open={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}
