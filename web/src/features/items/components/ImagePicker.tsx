import AddPhotoAlternateRoundedIcon from '@mui/icons-material/AddPhotoAlternateRounded';
import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import DeleteOutlineRoundedIcon from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { ITEM_LIMITS } from '@shared/constants/limits';
import { useEffect, useId, useRef, useState } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useErrorText } from '../../../lib/errors';
import { uploadItemFile } from '../api/items';
import { ITEM_IMAGE_TYPES } from '@shared/schemas/items';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

interface PickedImage {
  key: string;
  name: string;
  preview: string;
  status: 'uploading' | 'confirming' | 'done' | 'error';
  uploadId: string | null;
  error: string | null;
}

/** The reason a picked image is refused before upload, or null. */
export function imageProblem(file: File): string | null {
  if (!(ITEM_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'forms.validation.image.type';
  }
  if (file.size > ITEM_LIMITS.imageMaxBytes) return 'forms.validation.image.size';
  return null;
}

function previewOf(file: File): string {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '';
}

interface ImagePickerProps {
  userId: string;
  /** Confirmed upload ids, main first. */
  onChange: (ids: string[]) => void;
  onBusyChange?: (busy: boolean) => void;
  error?: string | undefined;
  max?: number;
  label: string;
}

/** Picks up to `max` images, checks them, uploads and confirms each; first = main. */
export function ImagePicker({
  userId,
  onChange,
  onBusyChange,
  error,
  max = ITEM_LIMITS.maxImages,
  label,
}: ImagePickerProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [images, setImages] = useState<PickedImage[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const counter = useRef(0);

  const doneIds = images.flatMap((image) =>
    image.status === 'done' && image.uploadId ? [image.uploadId] : [],
  );
  const idsKey = doneIds.join(',');
  const busy = images.some(
    (image) => image.status === 'uploading' || image.status === 'confirming',
  );
  useEffect(() => {
    onChange(idsKey === '' ? [] : idsKey.split(','));
  }, [idsKey, onChange]);
  useEffect(() => {
    onBusyChange?.(busy);
  }, [busy, onBusyChange]);

  const update = (key: string, patch: Partial<PickedImage>) =>
    setImages((list) => list.map((image) => (image.key === key ? { ...image, ...patch } : image)));

  const pick = (files: File[]) => {
    setProblem(null);
    const room = max - images.length;
    if (files.length > room) setProblem('items.form.images.limit');
    for (const file of files.slice(0, Math.max(room, 0))) {
      const refused = imageProblem(file);
      if (refused) {
        setProblem(refused);
        continue;
      }
      counter.current += 1;
      const key = `img-${counter.current}`;
      setImages((list) => [
        ...list,
        {
          key,
          name: file.name,
          preview: previewOf(file),
          status: 'uploading',
          uploadId: null,
          error: null,
        },
      ]);
      uploadItemFile(userId, file, 'image', (step) => {
        if (step === 'confirming') update(key, { status: 'confirming' });
      })
        .then((uploaded) => update(key, { status: 'done', uploadId: uploaded.upload_id }))
        .catch((failure: unknown) => update(key, { status: 'error', error: errorText(failure) }));
    }
  };

  const move = (index: number, by: number) =>
    setImages((list) => {
      const next = [...list];
      const [moved] = next.splice(index, 1);
      if (!moved) return list;
      next.splice(index + by, 0, moved);
      return next;
    });
  const remove = (key: string) => setImages((list) => list.filter((image) => image.key !== key));

  const shownError = problem ? t(problem as 'items.form.images.limit') : error;

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }} aria-describedby={`${inputId}-help`}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {label}
      </Typography>
      <Box
        component="ul"
        aria-label={t('items.form.images.list')}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
        }}
      >
        {images.map((image, index) => (
          <Box
            component="li"
            key={image.key}
            aria-label={image.name}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1, minWidth: 0 }}
          >
            <Box
              component="img"
              src={image.preview || undefined}
              alt={image.name}
              sx={{
                width: '100%',
                aspectRatio: '1',
                objectFit: 'cover',
                borderRadius: 1,
                bgcolor: 'action.hover',
              }}
            />
            {index === 0 ? (
              <Chip size="small" color="primary" label={t('items.form.images.main')} />
            ) : null}
            {image.status === 'uploading' || image.status === 'confirming' ? (
              <LinearProgress
                aria-label={t(`items.form.images.${image.status}`, { name: image.name })}
                sx={{ mt: 1 }}
              />
            ) : null}
            {image.status === 'error' ? (
              <Typography role="alert" variant="caption" color="error">
                {image.error}
              </Typography>
            ) : null}
            <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 0.5 }}>
              <IconButton
                size="small"
                disabled={index === 0}
                onClick={() => move(index, -1)}
                aria-label={t('items.form.images.moveLeft', { name: image.name })}
              >
                <ArrowBackRoundedIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                disabled={index === images.length - 1}
                onClick={() => move(index, 1)}
                aria-label={t('items.form.images.moveRight', { name: image.name })}
              >
                <ArrowForwardRoundedIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                onClick={() => remove(image.key)}
                aria-label={t('items.form.images.remove', { name: image.name })}
              >
                <DeleteOutlineRoundedIcon fontSize="small" />
              </IconButton>
            </Box>
          </Box>
        ))}
      </Box>
      <input
        ref={input}
        id={inputId}
        type="file"
        hidden
        multiple={max > 1}
        accept={ITEM_IMAGE_TYPES.join(',')}
        aria-label={t('items.form.images.pick')}
        onChange={(event) => {
          pick(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <Button
        variant="outlined"
        startIcon={<AddPhotoAlternateRoundedIcon />}
        disabled={images.length >= max}
        onClick={() => input.current?.click()}
        sx={{ mt: 1.5 }}
      >
        {t('items.form.images.add', { count: images.length, max })}
      </Button>
      <FormHelperText id={`${inputId}-help`}>{t('items.form.images.help', { max })}</FormHelperText>
      {shownError ? (
        <FormHelperText error role="alert">
          {shownError}
        </FormHelperText>
      ) : null}
    </Box>
  );
}
