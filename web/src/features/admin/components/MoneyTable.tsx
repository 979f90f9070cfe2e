import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';

/** A column of a MoneyTable: its header and what a row shows in it. */
export interface MoneyColumn<Row> {
  key: string;
  label: string;
  cell: (row: Row) => ReactNode;
  /** Amounts: right-aligned, tabular figures, never wrapped. */
  numeric?: boolean;
  /** Dates: never wrapped. */
  nowrap?: boolean;
}

/** Below 960 px the rows are cards: a table of many columns does not fit a phone or a tablet. */
export function useNarrow(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}

/**
 * Rows of support's money page: a table from 960 px (its header cells name the columns), below it
 * a list of cards, each row's facts as a description list (term, value), so nothing scrolls
 * sideways on a phone. The table or list is named by `labelledBy` (the section's heading) or
 * `label`.
 */
export function MoneyTable<Row>({
  columns,
  rows,
  rowKey,
  labelledBy,
  label,
}: {
  columns: MoneyColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  labelledBy?: string;
  label?: string;
}) {
  const narrow = useNarrow();
  if (narrow) {
    return (
      <Box
        component="ul"
        aria-labelledby={labelledBy}
        aria-label={label}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
      >
        {rows.map((row) => (
          <Paper component="li" variant="outlined" key={rowKey(row)} sx={{ p: 2, minWidth: 0 }}>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
                columnGap: 1.5,
                rowGap: 0.75,
                '& dd': { m: 0, overflowWrap: 'anywhere', minWidth: 0 },
              }}
            >
              {columns.map((column) => (
                <Box key={column.key} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {column.label}
                  </Typography>
                  <Typography
                    component="dd"
                    variant="body2"
                    sx={{ fontVariantNumeric: column.numeric ? 'tabular-nums' : undefined }}
                  >
                    {column.cell(row)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Paper>
        ))}
      </Box>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-labelledby={labelledBy} aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.key}
                align={column.numeric ? 'right' : 'left'}
                sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
              >
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)}>
              {columns.map((column) => (
                <TableCell
                  key={column.key}
                  align={column.numeric ? 'right' : 'left'}
                  sx={{
                    whiteSpace: column.numeric || column.nowrap ? 'nowrap' : undefined,
                    fontVariantNumeric: column.numeric ? 'tabular-nums' : undefined,
                    verticalAlign: 'top',
                  }}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
