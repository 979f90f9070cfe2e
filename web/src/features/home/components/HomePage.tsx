import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import AutorenewRoundedIcon from '@mui/icons-material/AutorenewRounded';
import CloudDownloadRoundedIcon from '@mui/icons-material/CloudDownloadRounded';
import ConfirmationNumberRoundedIcon from '@mui/icons-material/ConfirmationNumberRounded';
import Inventory2RoundedIcon from '@mui/icons-material/Inventory2Rounded';
import LockRoundedIcon from '@mui/icons-material/LockRounded';
import NumbersRoundedIcon from '@mui/icons-material/NumbersRounded';
import QrCode2RoundedIcon from '@mui/icons-material/QrCode2Rounded';
import SellRoundedIcon from '@mui/icons-material/SellRounded';
import ShoppingBagRoundedIcon from '@mui/icons-material/ShoppingBagRounded';
import SpaRoundedIcon from '@mui/icons-material/SpaRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { ITEM_LIMITS, SALE_FEE_BPS } from '@shared/constants/limits';
import { PRODUCT_TYPES, type ProductType } from '@shared/switches';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { usePageMeta } from '../../../lib/head';
import { PATHS } from '../../../lib/paths';
import homeTexts from '../../../locales/en.home.json';

addTranslations({ home: homeTexts });

const FEE_PERCENT = SALE_FEE_BPS / 100;

/*
 * "New in the market" is its own chunk: the offerings client, its schemas and the card are not
 * part of the home page's first download, and the section renders only after the first paint
 * (never at build time or while hydrating, so the prerendered page and its hydration match).
 */
const NewInMarket = lazy(() =>
  import('./NewInMarket').then(
    (module) => ({ default: module.NewInMarket }),
    // Offline or a new deployment: the page goes on without the section.
    (): { default: ComponentType } => ({ default: () => null }),
  ),
);

/** Set once the app has painted a home page: later visits render the section at once. */
let paintedOnce = false;

/**
 * True from the first frame after the page has painted (false at build time and when hydrating),
 * and at once on later visits, so back to the home page finds the section at its full height in
 * the first render and the browser's scroll restoration lands where the user was.
 */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(paintedOnce);
  useEffect(() => {
    if (painted) return;
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        paintedOnce = true;
        setPainted(true);
      }, 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}

function NewInMarketSection() {
  const painted = useAfterFirstPaint();
  if (!painted) return null;
  return (
    <Box sx={{ py: { xs: 6, md: 8 } }}>
      <Container maxWidth="lg">
        <Suspense fallback={<Box sx={{ minHeight: 420 }} />}>
          <NewInMarket />
        </Suspense>
      </Container>
    </Box>
  );
}

/**
 * The item types this deployment lets sellers create (the `mintableTypes` switch), in the spec's
 * order. The page advertises only these (issue 8 §2: the home page describes this deployment).
 */
export function useOfferedTypes(): ProductType[] {
  const { mintableTypes } = useSwitches();
  return PRODUCT_TYPES.filter((type) => mintableTypes.includes(type));
}

let listFormat: Intl.ListFormat | undefined;

/** 'a', 'a and b', 'a, b and c' (British English, as the texts are). */
function listOf(parts: string[]): string {
  // One formatter for the page: building one loads the locale's data (tens of ms on a phone).
  listFormat ??= new Intl.ListFormat('en-GB', { style: 'long', type: 'conjunction' });
  return listFormat.format(parts);
}

/** Resale royalties exist only for types other than physical (spec 000 §5). */
function royaltiesOffered(types: ProductType[]): boolean {
  return types.some((type) => type !== 'physical');
}

const TYPE_LOOK: Record<
  ProductType,
  { icon: ReactNode; tile: string; from: string; to: string; total: number }
> = {
  physical: {
    icon: <Inventory2RoundedIcon />,
    tile: '#2563EB',
    from: '#06B6D4',
    to: '#3B82F6',
    total: 25,
  },
  digital: {
    icon: <CloudDownloadRoundedIcon />,
    tile: '#7C3AED',
    from: '#A855F7',
    to: '#EC4899',
    total: 100,
  },
  ticket: {
    icon: <ConfirmationNumberRoundedIcon />,
    tile: '#C2410C',
    from: '#F59E0B',
    to: '#EF4444',
    total: 200,
  },
  service: { icon: <SpaRoundedIcon />, tile: '#0F766E', from: '#10B981', to: '#0EA5E9', total: 12 },
};

/** The home page's texts that depend on the offered types. */
function useTypeTexts() {
  const { t } = useTranslation();
  const types = useOfferedTypes();
  return {
    types,
    titles: types.map((type) => t(`home.categories.${type}.title`)),
    phrases: listOf(types.map((type) => t(`home.phrases.${type}`))),
  };
}

const heroGradient =
  'radial-gradient(900px 480px at 88% -5%, rgba(124, 58, 237, 0.55) 0%, transparent 62%),' +
  'radial-gradient(700px 420px at -8% 105%, rgba(6, 182, 212, 0.32) 0%, transparent 58%),' +
  'linear-gradient(135deg, #1E1B4B 0%, #312E81 52%, #3B0764 100%)';

function Section({
  children,
  id,
  tinted = false,
}: {
  children: ReactNode;
  id: string;
  tinted?: boolean;
}) {
  return (
    <Box
      component="section"
      aria-labelledby={id}
      sx={{
        py: { xs: 6, md: 9 },
        bgcolor: tinted ? 'background.paper' : 'transparent',
        borderBlock: tinted ? 1 : 0,
        borderColor: 'divider',
      }}
    >
      <Container maxWidth="lg">{children}</Container>
    </Box>
  );
}

function SectionTitle({ id, title, subtitle }: { id: string; title: string; subtitle?: string }) {
  return (
    <Box sx={{ mb: { xs: 3.5, md: 5 }, maxWidth: 640 }}>
      <Typography
        id={id}
        variant="h4"
        component="h2"
        sx={{ fontSize: { xs: '1.75rem', md: '2.125rem' } }}
      >
        {title}
      </Typography>
      {subtitle ? (
        <Typography color="text.secondary" sx={{ mt: 1, fontSize: '1.05rem' }}>
          {subtitle}
        </Typography>
      ) : null}
    </Box>
  );
}

function IconTile({ children, color }: { children: ReactNode; color: string }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: 48,
        height: 48,
        borderRadius: '14px',
        display: 'grid',
        placeItems: 'center',
        color,
        bgcolor: alpha(color, 0.1),
        '& svg': { fontSize: 26 },
      }}
    >
      {children}
    </Box>
  );
}

/** A decorative stack of edition cards: what a numbered, tokenised copy looks like. */
function EditionStack() {
  const { t } = useTranslation();
  const { types } = useTypeTexts();
  // Three example copies, of the offered types only (cycling when fewer are offered).
  // Each copy's number a share of its edition, so it is never above the edition's size.
  const cards = [0.48, 0.12, 0.92].map((share, index) => {
    const type = types[index % types.length] ?? 'physical';
    const look = TYPE_LOOK[type];
    return {
      key: `${type}-${index}`,
      icon: look.icon,
      type: t(`home.categories.${type}.title`),
      number: Math.max(1, Math.round(look.total * share)),
      total: look.total,
      badge: index === 1 ? t('home.hero.auction') : t('home.hero.buyNow'),
      from: look.from,
      to: look.to,
    };
  });
  return (
    <Box
      aria-hidden
      sx={{
        display: 'grid',
        gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
        alignItems: 'start',
        gap: 2.5,
        maxWidth: 460,
        mx: 'auto',
        pb: 6,
      }}
    >
      {cards.map((card, index) => (
        <Box
          key={card.key}
          sx={{
            mt: index === 1 ? 7 : index === 2 ? -5 : 0,
            transform: `rotate(${[-4, 3, -2][index]}deg)`,
            p: 1.75,
            borderRadius: '20px',
            bgcolor: 'rgba(255, 255, 255, 0.1)',
            border: '1px solid rgba(255, 255, 255, 0.22)',
            backdropFilter: 'blur(14px)',
            boxShadow: '0 24px 48px -16px rgba(0, 0, 0, 0.45)',
          }}
        >
          <Box
            sx={{
              height: 110,
              borderRadius: '14px',
              background: `linear-gradient(135deg, ${card.from} 0%, ${card.to} 100%)`,
              display: 'grid',
              placeItems: 'center',
              color: '#fff',
              '& svg': { fontSize: 46, opacity: 0.95 },
            }}
          >
            {card.icon}
          </Box>
          <Typography sx={{ mt: 1.5, fontWeight: 700, fontSize: '0.95rem' }}>
            {card.type}
          </Typography>
          <Box
            sx={{
              mt: 0.75,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 1,
            }}
          >
            <Typography sx={{ fontSize: '0.8rem', opacity: 0.85, fontFeatureSettings: '"tnum"' }}>
              {t('home.hero.edition', {
                number: String(card.number).padStart(3, '0'),
                total: card.total,
              })}
            </Typography>
            <Box
              component="span"
              sx={{
                px: 1,
                py: 0.25,
                borderRadius: '999px',
                bgcolor: 'rgba(255,255,255,0.18)',
                fontSize: '0.7rem',
                fontWeight: 700,
                whiteSpace: 'nowrap',
              }}
            >
              {card.badge}
            </Box>
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function Hero() {
  const { t } = useTranslation();
  const { openLogin } = useAuth();
  const { titles, phrases } = useTypeTexts();
  return (
    <Box
      component="section"
      aria-labelledby="hero-title"
      sx={{ background: heroGradient, color: '#FFFFFF', overflow: 'hidden' }}
    >
      <Container
        maxWidth="lg"
        sx={{
          py: { xs: 6, sm: 8, md: 10 },
          display: 'grid',
          gap: 4,
          alignItems: 'center',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1.15fr) minmax(0, 1fr)' },
        }}
      >
        <Box>
          <Typography
            variant="overline"
            component="p"
            sx={{ color: '#C7D2FE', fontSize: { xs: '0.72rem', sm: '0.8rem' } }}
          >
            {titles.join(' · ')}
          </Typography>
          <Typography
            id="hero-title"
            variant="h1"
            sx={{
              mt: 1.5,
              fontSize: { xs: '2.3rem', sm: '3.1rem', lg: '3.6rem' },
              fontWeight: 800,
            }}
          >
            {t('home.hero.title')}
          </Typography>
          <Typography
            sx={{
              mt: 2.5,
              fontSize: { xs: '1.05rem', sm: '1.2rem' },
              color: '#E0E7FF',
              maxWidth: 560,
              lineHeight: 1.6,
            }}
          >
            {t('home.hero.subtitle', { types: phrases })}
          </Typography>
          <Box sx={{ mt: 4, display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <Button
              component={RouterLink}
              to="/sellers"
              variant="contained"
              size="large"
              endIcon={<ArrowForwardRoundedIcon />}
              sx={{ bgcolor: '#FFFFFF', color: '#312E81', '&:hover': { bgcolor: '#EEF2FF' } }}
            >
              {t('home.hero.primaryCta')}
            </Button>
            <Button
              variant="outlined"
              size="large"
              onClick={() => openLogin(PATHS.mintForm)}
              sx={{
                color: '#FFFFFF',
                borderColor: 'rgba(255,255,255,0.55)',
                '&:hover': { borderColor: '#FFFFFF', bgcolor: 'rgba(255,255,255,0.08)' },
              }}
            >
              {t('home.hero.secondaryCta')}
            </Button>
          </Box>
          <Typography sx={{ mt: 3, fontSize: '0.9rem', color: '#C7D2FE' }}>
            {t('home.hero.trust', { fee: FEE_PERCENT })}
          </Typography>
        </Box>
        <Box sx={{ display: { xs: 'none', md: 'block' } }}>
          <EditionStack />
        </Box>
      </Container>
    </Box>
  );
}

function Categories() {
  const { t } = useTranslation();
  const { types } = useTypeTexts();
  const icons: Record<ProductType, ReactNode> = {
    physical: <ShoppingBagRoundedIcon />,
    digital: <CloudDownloadRoundedIcon />,
    ticket: <ConfirmationNumberRoundedIcon />,
    service: <SpaRoundedIcon />,
  };
  const categories = types.map((key) => ({ key, icon: icons[key], color: TYPE_LOOK[key].tile }));
  const columns = (max: number) => `repeat(${Math.min(categories.length, max)}, minmax(0, 1fr))`;
  return (
    <Section id="categories-title">
      <SectionTitle
        id="categories-title"
        title={t('home.categories.title')}
        subtitle={t('home.categories.subtitle', { count: categories.length })}
      />
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: columns(2), lg: columns(4) },
        }}
      >
        {categories.map((category) => (
          <li key={category.key}>
            <Card sx={{ p: 3, height: '100%' }}>
              <IconTile color={category.color}>{category.icon}</IconTile>
              <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
                {t(`home.categories.${category.key}.title`)}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1, lineHeight: 1.6 }}>
                {t(`home.categories.${category.key}.body`)}
              </Typography>
            </Card>
          </li>
        ))}
      </Box>
    </Section>
  );
}

function Steps({ side, icon }: { side: 'buyers' | 'sellers'; icon: ReactNode }) {
  const { t } = useTranslation();
  const values = {
    fee: FEE_PERCENT,
    maxCopies: ITEM_LIMITS.maxCopies,
    maxImages: ITEM_LIMITS.maxImages,
  };
  const steps = ['step1', 'step2', 'step3', 'step4'] as const;
  const { types } = useTypeTexts();
  // What the last step adds for the offered types only (files, tickets, royalties).
  const extras =
    side === 'buyers'
      ? [
          ...(types.includes('digital') ? [t('home.how.buyers.step4.digital')] : []),
          ...(types.includes('ticket') ? [t('home.how.buyers.step4.ticket')] : []),
        ]
      : royaltiesOffered(types)
        ? [t('home.how.sellers.step4.royalties')]
        : [];
  const body = (step: (typeof steps)[number]) =>
    [t(`home.how.${side}.${step}.body`, values), ...(step === 'step4' ? extras : [])].join(' ');
  return (
    <Card sx={{ p: { xs: 3, sm: 4 }, height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <IconTile color={side === 'buyers' ? '#4F46E5' : '#0F766E'}>{icon}</IconTile>
        <Typography variant="h5" component="h3">
          {t(`home.how.${side}.title`)}
        </Typography>
      </Box>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, mt: 3, p: 0, display: 'grid', gap: 2.5 }}>
        {steps.map((step, index) => (
          <Box component="li" key={step} sx={{ display: 'flex', gap: 2 }}>
            <Box
              aria-hidden
              sx={{
                flexShrink: 0,
                width: 32,
                height: 32,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                fontWeight: 700,
                fontSize: '0.9rem',
                color: side === 'buyers' ? 'primary.dark' : 'secondary.main',
                bgcolor: side === 'buyers' ? 'rgba(79, 70, 229, 0.1)' : 'rgba(15, 118, 110, 0.1)',
              }}
            >
              {index + 1}
            </Box>
            <Box>
              <Typography sx={{ fontWeight: 700 }}>
                {t(`home.how.${side}.${step}.title`)}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 0.25, lineHeight: 1.6 }}>
                {body(step)}
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </Card>
  );
}

function HowItWorks() {
  const { t } = useTranslation();
  return (
    <Section id="how-title" tinted>
      <SectionTitle id="how-title" title={t('home.how.title')} subtitle={t('home.how.subtitle')} />
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <Steps side="buyers" icon={<ShoppingBagRoundedIcon />} />
        <Steps side="sellers" icon={<SellRoundedIcon />} />
      </Box>
    </Section>
  );
}

function Features() {
  const { t } = useTranslation();
  const { types } = useTypeTexts();
  const features = [
    { key: 'numbered' as const, icon: <NumbersRoundedIcon />, offered: true },
    { key: 'payments' as const, icon: <LockRoundedIcon />, offered: true },
    { key: 'tickets' as const, icon: <QrCode2RoundedIcon />, offered: types.includes('ticket') },
    { key: 'royalties' as const, icon: <AutorenewRoundedIcon />, offered: royaltiesOffered(types) },
  ].filter((feature) => feature.offered);
  return (
    <Section id="features-title" tinted>
      <SectionTitle id="features-title" title={t('home.features.title')} />
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          columnGap: 4,
          rowGap: 3.5,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: `repeat(${Math.min(features.length, 2)}, minmax(0, 1fr))`,
            lg: `repeat(${Math.min(features.length, 4)}, minmax(0, 1fr))`,
          },
        }}
      >
        {features.map((feature) => (
          <Box component="li" key={feature.key}>
            <IconTile color="#4F46E5">{feature.icon}</IconTile>
            <Typography variant="h6" component="h3" sx={{ mt: 1.5, fontSize: '1.05rem' }}>
              {t(`home.features.${feature.key}.title`)}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 0.5, lineHeight: 1.6 }}>
              {t(`home.features.${feature.key}.body`)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Section>
  );
}

function CallToAction() {
  const { t } = useTranslation();
  const { openLogin } = useAuth();
  return (
    <Box component="section" aria-labelledby="cta-title" sx={{ pb: { xs: 6, md: 9 } }}>
      <Container maxWidth="lg">
        <Box
          sx={{
            borderRadius: '28px',
            px: { xs: 3, sm: 6 },
            py: { xs: 5, sm: 6 },
            color: '#FFFFFF',
            background: 'linear-gradient(120deg, #4338CA 0%, #6D28D9 60%, #7E22CE 100%)',
            display: 'flex',
            flexDirection: { xs: 'column', md: 'row' },
            alignItems: { xs: 'flex-start', md: 'center' },
            justifyContent: 'space-between',
            gap: 3,
            boxShadow: '0 30px 60px -30px rgba(67, 56, 202, 0.6)',
          }}
        >
          <Box sx={{ maxWidth: 560 }}>
            <Typography
              id="cta-title"
              variant="h4"
              component="h2"
              sx={{ fontSize: { xs: '1.6rem', sm: '2rem' } }}
            >
              {t('home.cta.title')}
            </Typography>
            <Typography sx={{ mt: 1.5, color: '#E0E7FF', fontSize: '1.05rem', lineHeight: 1.6 }}>
              {t('home.cta.body')}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, flexShrink: 0 }}>
            <Button
              variant="contained"
              size="large"
              onClick={() => openLogin(PATHS.mintForm)}
              sx={{ bgcolor: '#FFFFFF', color: '#4338CA', '&:hover': { bgcolor: '#EEF2FF' } }}
            >
              {t('home.cta.sell')}
            </Button>
            <Button
              component={RouterLink}
              to="/sellers"
              size="large"
              sx={{ color: '#FFFFFF', '&:hover': { bgcolor: 'rgba(255,255,255,0.1)' } }}
            >
              {t('home.cta.browse')}
            </Button>
          </Box>
        </Box>
      </Container>
    </Box>
  );
}

/**
 * `/`: the landing page. `topSellers` is the sellers feature's strip, composed in by the app
 * (features do not import each other).
 */
export function HomePage({ topSellers }: { topSellers?: ReactNode }) {
  const { t } = useTranslation();
  const app = t('app.name');
  const { phrases } = useTypeTexts();
  usePageMeta({
    title: t('meta.home.title', { app }),
    description: t('meta.home.description', { types: phrases }),
  });
  return (
    <>
      <Hero />
      <Categories />
      <HowItWorks />
      {topSellers ? (
        <Box sx={{ py: { xs: 6, md: 8 } }}>
          <Container maxWidth="lg">{topSellers}</Container>
        </Box>
      ) : null}
      {/* After the prerendered sections: it arrives after the first paint, so nothing above it
          moves when it does (and back to the home page restores the scroll). */}
      <NewInMarketSection />
      <Features />
      <CallToAction />
    </>
  );
}
