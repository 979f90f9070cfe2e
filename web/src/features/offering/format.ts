/** The viewer's time zone, for dates as the spec shows them (DD/MM/YYYY HH:mm). */
export const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
