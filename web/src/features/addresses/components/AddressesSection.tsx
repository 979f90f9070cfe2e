import AddRoundedIcon from '@mui/icons-material/AddRounded';
import DeleteOutlineRoundedIcon from '@mui/icons-material/DeleteOutlineRounded';
import EditRoundedIcon from '@mui/icons-material/EditRounded';
import HomeWorkRoundedIcon from '@mui/icons-material/HomeWorkRounded';
import StarRoundedIcon from '@mui/icons-material/StarRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ADDRESS_LIMITS, type Address } from '@shared/schemas/addresses';
import { useId, useState } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useErrorText } from '../../../lib/errors';
import { toasts } from '../../../lib/toast';
import { useAddresses, useSetDefaultAddress } from '../hooks/useAddresses';
import { AddressDialog } from './AddressDialog';
import { DeleteAddressDialog } from './DeleteAddressDialog';
import addressesTexts from '../../../locales/en.addresses.json';
import { SettingsSection } from '../../../components/SettingsSection';

addTranslations({ addresses: addressesTexts });

type Editing = { address: Address | null } | null;

/** The user's postal addresses (spec 001 §3): list, add, edit, delete, choose the default. */
export function AddressesSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const query = useAddresses(userId);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Address | null>(null);
  const headingId = useId();
  const items = query.data ?? [];
  const full = items.length >= ADDRESS_LIMITS.maxPerUser;
  const add = () => setEditing({ address: null });

  let content;
  if (query.isPending) {
    content = (
      <Box role="status" aria-label={t('addresses.loading')} sx={{ display: 'grid', gap: 1.5 }}>
        {[0, 1].map((index) => (
          <Skeleton key={index} variant="rounded" height={96} />
        ))}
      </Box>
    );
  } else if (query.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('addresses.loadError')}
      </Alert>
    );
  } else if (items.length === 0) {
    content = (
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 1.5,
          py: 5,
          px: 2,
          border: 1,
          borderStyle: 'dashed',
          borderColor: 'divider',
          borderRadius: 3,
        }}
      >
        <HomeWorkRoundedIcon aria-hidden sx={{ fontSize: 40, color: 'text.disabled' }} />
        <Typography sx={{ fontWeight: 600 }}>{t('addresses.empty')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('addresses.emptyBody')}
        </Typography>
        <Button variant="contained" startIcon={<AddRoundedIcon />} onClick={add}>
          {t('addresses.add')}
        </Button>
      </Box>
    );
  } else {
    content = (
      <Box
        component="ul"
        aria-labelledby={headingId}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
      >
        {items.map((address) => (
          <AddressItem
            key={address.id}
            userId={userId}
            address={address}
            onEdit={() => setEditing({ address })}
            onDelete={() => setDeleting(address)}
          />
        ))}
      </Box>
    );
  }

  return (
    <SettingsSection
      headingId={headingId}
      title={t('addresses.title')}
      subtitle={t('addresses.subtitle')}
      action={
        query.isSuccess && items.length > 0 ? (
          <Button variant="outlined" startIcon={<AddRoundedIcon />} onClick={add} disabled={full}>
            {t('addresses.add')}
          </Button>
        ) : null
      }
    >
      {full ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('addresses.errors.limit')}
        </Alert>
      ) : null}
      {content}
      {editing ? (
        <AddressDialog
          userId={userId}
          address={editing.address}
          first={items.length === 0}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <DeleteAddressDialog userId={userId} address={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </SettingsSection>
  );
}

function AddressItem({
  userId,
  address,
  onEdit,
  onDelete,
}: {
  userId: string;
  address: Address;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const setDefault = useSetDefaultAddress(userId);
  const country = countryName(address.country, i18n.language);
  const cityLine = [address.postalcode, address.city, address.stateprovince]
    .filter(Boolean)
    .join(', ');
  const makeDefault = () =>
    setDefault.mutate(address, {
      onSuccess: () => toasts.show({ severity: 'success', message: t('addresses.defaultSet') }),
      onError: (error) => toasts.show({ severity: 'error', message: errorText(error) }),
    });
  return (
    <Box
      component="li"
      aria-label={address.fullname}
      sx={{
        p: 2,
        border: 1,
        borderColor: address.default ? 'primary.main' : 'divider',
        borderRadius: 2,
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        gap: 1.5,
        justifyContent: 'space-between',
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {address.fullname}
          </Typography>
          {address.default ? (
            <Chip
              size="small"
              color="primary"
              icon={<StarRoundedIcon />}
              label={t('addresses.default')}
            />
          ) : null}
        </Box>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {address.line1}
        </Typography>
        {address.line2 ? (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {address.line2}
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {cityLine}
        </Typography>
        <Typography variant="body2">{country}</Typography>
        {address.instructions ? (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 0.5, overflowWrap: 'anywhere' }}
          >
            {address.instructions}
          </Typography>
        ) : null}
      </Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: { xs: 'center', sm: 'flex-start' },
          gap: 0.5,
          flexShrink: 0,
        }}
      >
        {address.default ? null : (
          <Button size="small" onClick={makeDefault} loading={setDefault.isPending}>
            {t('addresses.setDefault')}
          </Button>
        )}
        <Tooltip title={t('addresses.edit')} describeChild>
          <IconButton
            aria-label={t('addresses.editOf', { fullname: address.fullname })}
            onClick={onEdit}
          >
            <EditRoundedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('addresses.delete')} describeChild>
          <IconButton
            aria-label={t('addresses.deleteOf', { fullname: address.fullname })}
            onClick={onDelete}
          >
            <DeleteOutlineRoundedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}

function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
