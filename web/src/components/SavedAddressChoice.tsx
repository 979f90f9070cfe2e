import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { Address } from '@shared/schemas/addresses';
import type { PostalAddress } from '@shared/schemas/orders';
import { useId, type ReactNode } from 'react';
import { countryName } from '../lib/countries';
import { addTranslations, useTranslation } from '../lib/i18n';
import checkoutTexts from '../locales/en.checkout.json';

addTranslations({ checkout: checkoutTexts });

/** A saved address as an order or a bid sends it. */
export function postalOf(address: Address): PostalAddress {
  return {
    country: address.country,
    fullname: address.fullname,
    line1: address.line1,
    line2: address.line2,
    postalcode: address.postalcode,
    city: address.city,
    stateprovince: address.stateprovince,
    instructions: address.instructions,
  };
}

/** One line of an address as people write it. */
export function addressLine(
  address: Pick<Address, 'line1' | 'postalcode' | 'city' | 'country'>,
  language: string,
): string {
  return `${address.line1}, ${address.postalcode} ${address.city}, ${countryName(address.country, language)}`;
}

/** Whether the item is delivered to the address (no countries named: anywhere). */
export function deliversTo(
  countries: readonly string[],
  address: Pick<Address, 'country'>,
): boolean {
  return countries.length === 0 || countries.includes(address.country);
}

/**
 * The caller's saved addresses as a choice (the checkout's copies step, the bid form): name,
 * default badge, the address on one line; one the item is not delivered to is shown disabled with
 * why. `children` adds choices of the caller's own after them (e.g. "A new address").
 */
export function SavedAddressChoice({
  label,
  addresses,
  countries,
  value,
  onChange,
  disabled = false,
  children,
}: {
  label: string;
  addresses: readonly Address[];
  /** The countries the item is delivered to (empty: any). */
  countries: readonly string[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  return (
    <FormControl>
      <FormLabel id={labelId}>{label}</FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {addresses.map((address) => {
          const allowed = deliversTo(countries, address);
          return (
            <FormControlLabel
              key={address.id}
              value={address.id}
              disabled={!allowed || disabled}
              control={<Radio />}
              sx={{ alignItems: 'flex-start', my: 0.5, '& .MuiRadio-root': { mt: -0.75 } }}
              label={
                <Box component="span" sx={{ display: 'grid' }}>
                  <Box component="span" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                    <Box component="span" sx={{ fontWeight: 600 }}>
                      {address.fullname}
                    </Box>
                    {address.default ? (
                      <Chip size="small" component="span" label={t('checkout.shipping.default')} />
                    ) : null}
                  </Box>
                  <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                    {addressLine(address, i18n.language)}
                  </Box>
                  {allowed ? null : (
                    <Box component="span" sx={{ color: 'text.secondary', fontSize: 14 }}>
                      {t('checkout.shipping.notDelivered')}
                    </Box>
                  )}
                </Box>
              }
            />
          );
        })}
        {children}
      </RadioGroup>
    </FormControl>
  );
}
