/** A country of a select: its ISO 3166-1 alpha-2 code and its name in the current language. */
export interface CountryOption {
  code: string;
  name: string;
}

function regionNames(language: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    return null;
  }
}

function nameOf(names: Intl.DisplayNames | null, code: string): string {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The name of a country code in `language` (the code itself where Intl has no name). */
export function countryName(code: string, language: string): string {
  return nameOf(regionNames(language), code);
}

/** `codes` named in `language`, sorted by name. */
export function countryOptions(codes: Iterable<string>, language: string): CountryOption[] {
  const names = regionNames(language);
  return [...codes]
    .map((code) => ({ code, name: nameOf(names, code) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}
