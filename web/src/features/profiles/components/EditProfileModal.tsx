import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PROFILE_LIMITS, UI } from '@shared/constants/limits';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { RetryButton } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { toasts } from '../../../lib/toast';
import { profileKeys } from '../api/profiles';
import { useOwnProfile } from '../hooks/useProfile';
import { saveProfile, type SaveStep } from '../saveProfile';
import {
  displayName,
  editProfileFormSchema,
  formDefaults,
  imageError,
  SOCIAL_NETWORKS,
  updateBodyFrom,
  type EditProfileForm,
  type ImageKind,
  type OwnProfile,
  type PublicProfile,
} from '../schemas';
import { ImagePickerButton, usePreviewUrl } from './ImagePicker';
import accountTexts from '../../../locales/en.account.json';
import profilesTexts from '../../../locales/en.profiles.json';

addTranslations({ account: accountTexts, profiles: profilesTexts });

interface EditProfileModalProps {
  userId: string;
  /** The first-login variant: persistent, with Next instead of Save and close. */
  firstLogin: boolean;
  onClose: () => void;
}

/**
 * The edit-profile modal (spec 001 §2): max width 615, full screen below 768 px; fields by user
 * type; saves in the order of spec 001 §4.
 */
export function EditProfileModal({ userId, firstLogin, onClose }: EditProfileModalProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const profile = useOwnProfile(userId);
  const persistent = firstLogin || busy;
  const close = () => {
    if (!persistent) onClose();
  };

  let body: ReactNode;
  if (profile.isPending) {
    body = (
      <DialogContent role="status" aria-label={t('account.edit_profile.loading')}>
        <Skeleton variant="circular" width={96} height={96} />
        <Skeleton height={56} sx={{ mt: 2 }} />
        <Skeleton height={56} />
        <Skeleton variant="rounded" height={120} sx={{ mt: 1 }} />
      </DialogContent>
    );
  } else if (profile.isError) {
    body = (
      <DialogContent>
        <Alert
          severity="error"
          action={<RetryButton onClick={() => void profile.refetch()} busy={profile.isFetching} />}
        >
          {t('account.edit_profile.loadError')}
        </Alert>
        {firstLogin ? (
          <Box sx={{ mt: 2, textAlign: 'right' }}>
            <Button onClick={onClose}>{t('account.edit_profile.skip')}</Button>
          </Box>
        ) : null}
      </DialogContent>
    );
  } else {
    body = (
      <EditProfileForm
        profile={profile.data}
        firstLogin={firstLogin}
        onBusy={setBusy}
        onDone={onClose}
      />
    );
  }

  return (
    <Dialog
      open
      onClose={close}
      fullScreen={small}
      fullWidth
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: small ? undefined : { maxWidth: UI.modalWidths.profile } } }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: { xs: 1.5, sm: 3 },
          pt: { xs: 1.5, sm: 2.5 },
          pb: 1,
        }}
      >
        {small && !firstLogin ? (
          <IconButton onClick={close} disabled={busy} aria-label={t('account.edit_profile.back')}>
            <ArrowBackRoundedIcon />
          </IconButton>
        ) : null}
        <Box sx={{ flex: 1, minWidth: 0, pl: small && !firstLogin ? 0 : { xs: 1, sm: 0 } }}>
          <Typography id={titleId} variant="h6" component="h2" sx={{ fontSize: '1.25rem' }}>
            {firstLogin ? t('account.edit_profile.firstTitle') : t('account.edit_profile.title')}
          </Typography>
          {firstLogin ? (
            <Typography variant="body2" color="text.secondary">
              {t('account.edit_profile.firstSubtitle')}
            </Typography>
          ) : null}
        </Box>
        {!small && !firstLogin ? (
          <IconButton
            onClick={close}
            disabled={busy}
            aria-label={t('common.close')}
            sx={{ color: 'text.secondary' }}
          >
            <CloseRoundedIcon />
          </IconButton>
        ) : null}
      </Box>
      {body}
    </Dialog>
  );
}

/** Maps the API's field names onto the form's. */
const FIELD_OF_API: Record<string, FieldPath<EditProfileForm>> = {
  name: 'name',
  entity_name: 'name',
  surname: 'surname',
  title: 'title',
  slogan: 'slogan',
  entity_address: 'entity_address',
  summary: 'summary',
  video_url: 'video_url',
  'social_media.linkedin': 'social.linkedin',
  'social_media.twitter': 'social.twitter',
  'social_media.instagram': 'social.instagram',
  'social_media.facebook': 'social.facebook',
  'social_media.medium': 'social.medium',
};

const IMAGE_CODES = new Set(['forms.validation.image.size', 'forms.validation.image.type']);

interface EditProfileFormProps {
  profile: OwnProfile;
  firstLogin: boolean;
  onBusy: (busy: boolean) => void;
  onDone: () => void;
}

function EditProfileForm({ profile, firstLogin, onBusy, onDone }: EditProfileFormProps) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const company = profile.user_option === 'company';
  const schema = useMemo(() => editProfileFormSchema(profile.user_option), [profile.user_option]);
  const form = useForm<EditProfileForm>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: formDefaults(profile),
  });
  const { register, handleSubmit, setError, formState, control } = form;
  const [title, slogan, summary] = useWatch({ control, name: ['title', 'slogan', 'summary'] });

  const [files, setFiles] = useState<Record<ImageKind, File | null>>({
    avatar: null,
    cover: null,
  });
  const [imageErrors, setImageErrors] = useState<Record<ImageKind, string | null>>({
    avatar: null,
    cover: null,
  });
  const [saved, setSaved] = useState<PublicProfile>(profile);
  const [step, setStep] = useState<SaveStep | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const avatarPreview = usePreviewUrl(files.avatar);
  const coverPreview = usePreviewUrl(files.cover);
  const ids = { avatar: useId(), cover: useId() };
  const busy = step !== null && step !== 'done';

  const pick = (kind: ImageKind, file: File) => {
    const error = imageError(kind, file);
    setImageErrors((current) => ({ ...current, [kind]: error }));
    setFiles((current) => ({ ...current, [kind]: error ? null : file }));
  };

  const text = (code: string | undefined): string | undefined =>
    code
      ? i18n.exists(code)
        ? t(code as 'unexpected')
        : errorText(new ApiError({ code, status: 400 }))
      : undefined;

  const onValid = async (values: EditProfileForm) => {
    setFormError(null);
    onBusy(true);
    let current: SaveStep | null = null;
    try {
      const result = await saveProfile({
        id: profile.id,
        avatar: files.avatar,
        cover: company ? files.cover : null,
        body: updateBodyFrom(profile.user_option, values),
        onStep: (next) => {
          current = next;
          setStep(next);
        },
        onImageSaved: (kind, next) => {
          setSaved(next);
          setFiles((current) => ({ ...current, [kind]: null }));
        },
      });
      queryClient.setQueryData(profileKeys.byNick(result.nick), result);
      await queryClient.invalidateQueries({ queryKey: profileKeys.all });
      toasts.show({ severity: 'success', message: t('account.edit_profile.saved') });
      onBusy(false);
      onDone();
    } catch (error) {
      setStep(null);
      onBusy(false);
      handleError(error, current);
    }
  };

  const handleError = (error: unknown, failedStep: SaveStep | null) => {
    if (error instanceof ApiError && IMAGE_CODES.has(error.code)) {
      const kind: ImageKind = failedStep === 'cover' ? 'cover' : 'avatar';
      setImageErrors((current) => ({ ...current, [kind]: error.code }));
      return;
    }
    let mapped = false;
    if (error instanceof ApiError && error.fields) {
      for (const [key, code] of Object.entries(error.fields)) {
        if (key === 'avatar' || key === 'cover') {
          setImageErrors((current) => ({ ...current, [key]: code }));
          mapped = true;
          continue;
        }
        const field = FIELD_OF_API[key];
        if (field) {
          setError(field, { type: 'server', message: code }, { shouldFocus: !mapped });
          mapped = true;
        }
      }
    }
    if (!mapped) setFormError('account.edit_profile.errors.uploading');
  };

  const onInvalid = () => setFormError('account.edit_profile.errors.validation');

  const fieldProps = (name: FieldPath<EditProfileForm>) => {
    const segments = name.split('.');
    let node: unknown = formState.errors;
    for (const segment of segments) {
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : null;
    }
    const message =
      node && typeof node === 'object' && 'message' in node
        ? (node as { message?: string }).message
        : undefined;
    return { error: Boolean(message), message: text(message) };
  };

  const counter = (value: string, max: number) => `${value.length}/${max}`;
  const name = displayName(saved);
  const avatarSrc = avatarPreview ?? saved.profile_image ?? undefined;
  const coverSrc = coverPreview ?? saved.header_image;
  const stepText = step ? t(`account.edit_profile.steps.${step}`) : '';

  const textField = (
    fieldName: FieldPath<EditProfileForm>,
    label: string,
    extra: { max?: number; value?: string; hint?: string; multiline?: boolean } = {},
  ) => {
    const { error, message } = fieldProps(fieldName);
    const count = extra.max !== undefined ? counter(extra.value ?? '', extra.max) : null;
    const helper = message ?? extra.hint ?? ' ';
    return (
      <TextField
        {...register(fieldName)}
        label={label}
        fullWidth
        disabled={busy}
        error={error || (extra.max !== undefined && (extra.value ?? '').length > extra.max)}
        multiline={extra.multiline}
        minRows={extra.multiline ? 5 : undefined}
        maxRows={extra.multiline ? 12 : undefined}
        helperText={
          count ? (
            <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
              <span>{helper}</span>
              <span
                aria-label={t('account.edit_profile.counter', {
                  count: (extra.value ?? '').length,
                  max: extra.max,
                })}
              >
                {count}
              </span>
            </Box>
          ) : (
            helper
          )
        }
      />
    );
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void handleSubmit(onValid, onInvalid)(event)}
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
    >
      <DialogContent sx={{ px: { xs: 2, sm: 3 }, pt: 1 }}>
        <Box sx={{ position: 'relative', mb: company ? 7 : 2 }}>
          {company ? (
            <Box
              role="img"
              aria-label={t('account.edit_profile.coverPreview')}
              sx={{
                height: { xs: 140, sm: 180 },
                borderRadius: 3,
                overflow: 'hidden',
                background: 'linear-gradient(120deg, #4F46E5 0%, #7C3AED 55%, #0F766E 100%)',
                backgroundImage: coverSrc ? `url("${coverSrc}")` : undefined,
                backgroundSize: 'cover',
                backgroundPosition: 'center',
                display: 'flex',
                alignItems: 'flex-start',
                justifyContent: 'flex-end',
                p: 1.5,
              }}
            >
              <ImagePickerButton
                label={t('account.edit_profile.changeCover')}
                variant="overlay"
                disabled={busy}
                describedBy={ids.cover}
                onPick={(file) => pick('cover', file)}
              />
            </Box>
          ) : null}
          <Box
            sx={{
              display: 'flex',
              alignItems: 'flex-end',
              gap: 2,
              ...(company
                ? { position: 'absolute', left: { xs: 12, sm: 20 }, bottom: -52, right: 12 }
                : {}),
            }}
          >
            <Avatar
              src={avatarSrc}
              alt={t('account.edit_profile.avatarPreview')}
              sx={{
                width: 96,
                height: 96,
                fontSize: 40,
                fontWeight: 700,
                bgcolor: 'primary.main',
                border: '4px solid #FFFFFF',
                boxShadow: '0 6px 18px -8px rgba(15, 23, 42, 0.4)',
              }}
            >
              {name.charAt(0).toUpperCase()}
            </Avatar>
            <Box sx={{ pb: 0.5 }}>
              <ImagePickerButton
                label={t('account.edit_profile.changeAvatar')}
                disabled={busy}
                describedBy={ids.avatar}
                onPick={(file) => pick('avatar', file)}
              />
            </Box>
          </Box>
        </Box>
        <Box sx={{ mb: 2 }}>
          <Typography
            id={ids.avatar}
            variant="caption"
            role={imageErrors.avatar ? 'alert' : undefined}
            color={imageErrors.avatar ? 'error' : 'text.secondary'}
            component="p"
          >
            {imageErrors.avatar
              ? text(imageErrors.avatar)
              : t('account.edit_profile.avatarHint', { size: 8 })}
          </Typography>
          {company ? (
            <Typography
              id={ids.cover}
              variant="caption"
              role={imageErrors.cover ? 'alert' : undefined}
              color={imageErrors.cover ? 'error' : 'text.secondary'}
              component="p"
            >
              {imageErrors.cover
                ? text(imageErrors.cover)
                : t('account.edit_profile.coverHint', { size: 2 })}
            </Typography>
          ) : null}
        </Box>

        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <Box sx={{ gridColumn: company ? '1 / -1' : undefined }}>
            {textField(
              'name',
              company
                ? t('account.edit_profile.fields.companyName')
                : t('account.edit_profile.fields.name'),
            )}
          </Box>
          {company ? null : (
            <Box>{textField('surname', t('account.edit_profile.fields.surname'))}</Box>
          )}
          <Box sx={{ gridColumn: '1 / -1' }}>
            {company
              ? textField('slogan', t('account.edit_profile.fields.slogan'), {
                  max: PROFILE_LIMITS.companySloganMax,
                  value: slogan,
                })
              : textField('title', t('account.edit_profile.fields.title'), {
                  max: PROFILE_LIMITS.userTitleMax,
                  value: title,
                })}
          </Box>
          {company ? (
            <Box sx={{ gridColumn: '1 / -1' }}>
              {textField('entity_address', t('account.edit_profile.fields.entityAddress'))}
            </Box>
          ) : null}
          <Box sx={{ gridColumn: '1 / -1' }}>
            {textField('summary', t('account.edit_profile.fields.summary'), {
              max: PROFILE_LIMITS.summaryMax,
              value: summary,
              multiline: true,
            })}
          </Box>
          <Box sx={{ gridColumn: '1 / -1' }}>
            {textField('video_url', t('account.edit_profile.fields.video'), {
              hint: t('account.edit_profile.fields.videoHint'),
            })}
          </Box>
        </Box>

        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
          <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
            {t('account.edit_profile.fields.social')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {SOCIAL_NETWORKS.map((network) => (
              <Box key={network}>
                {textField(`social.${network}`, t(`profiles.social.${network}`), {
                  hint: t(`account.edit_profile.socialHint.${network}`),
                })}
              </Box>
            ))}
          </Box>
        </Box>
      </DialogContent>

      <Box aria-live="polite" sx={{ px: { xs: 2, sm: 3 } }}>
        {busy ? (
          <Box sx={{ py: 1 }}>
            <LinearProgress aria-label={stepText} />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75 }}>
              {stepText}
            </Typography>
          </Box>
        ) : null}
        {formError ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {text(formError)}
          </Alert>
        ) : null}
      </Box>
      <DialogActions sx={{ px: { xs: 2, sm: 3 }, py: 2, gap: 1 }}>
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={busy}
          fullWidth
          sx={{ maxWidth: { sm: 240 } }}
        >
          {firstLogin ? t('account.edit_profile.next') : t('account.edit_profile.save')}
        </Button>
      </DialogActions>
    </Box>
  );
}
