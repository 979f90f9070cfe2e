import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { usePageMeta } from '../../../lib/head';
import legalTexts from '../../../locales/en.legal.json';

addTranslations({ legal: legalTexts });

interface TermsSection {
  title: string;
  paragraphs: string[];
}

function sectionId(index: number): string {
  return `terms-${index + 1}`;
}

/** `/legal/terms`: the terms of service. */
export function TermsPage() {
  const { t } = useTranslation();
  const app = t('app.name');
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('meta.terms.title'), app }),
    description: t('meta.terms.description', { app }),
  });
  const sections = t('legal.terms.sections', { returnObjects: true }) as TermsSection[];
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box component="header" sx={{ mb: 4 }}>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', sm: '2.5rem' } }}>
          {t('legal.terms.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('legal.terms.updated')}
        </Typography>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 5 } }}>
        <Typography sx={{ fontSize: '1.05rem', lineHeight: 1.75 }}>
          {t('legal.terms.intro', { app })}
        </Typography>
        <Box
          component="nav"
          aria-labelledby="terms-contents"
          sx={{ mt: 4, p: { xs: 2, sm: 3 }, borderRadius: '16px', bgcolor: 'background.default' }}
        >
          <Typography id="terms-contents" variant="overline" component="h2" color="text.secondary">
            {t('legal.terms.contents')}
          </Typography>
          <Box
            component="ol"
            sx={{
              listStyle: 'none',
              m: 0,
              mt: 1,
              p: 0,
              columnCount: { xs: 1, sm: 2 },
              columnGap: 4,
              '& li': { py: 0.5, breakInside: 'avoid' },
            }}
          >
            {sections.map((section, index) => (
              <li key={section.title}>
                <Link href={`#${sectionId(index)}`} underline="hover" sx={{ fontWeight: 500 }}>
                  {section.title}
                </Link>
              </li>
            ))}
          </Box>
        </Box>
        {sections.map((section, index) => (
          <Box
            component="section"
            key={section.title}
            id={sectionId(index)}
            aria-labelledby={`${sectionId(index)}-title`}
            sx={{ mt: 5, scrollMarginTop: 90 }}
          >
            <Typography
              id={`${sectionId(index)}-title`}
              variant="h5"
              component="h2"
              sx={{ mb: 1.5 }}
            >
              {section.title}
            </Typography>
            {section.paragraphs.map((paragraph) => (
              <Typography
                key={paragraph}
                sx={{ mt: 1.5, lineHeight: 1.75, color: 'text.secondary' }}
              >
                {paragraph}
              </Typography>
            ))}
          </Box>
        ))}
      </Paper>
    </Container>
  );
}
