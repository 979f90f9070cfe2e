/**
 * Imported first by bench/run.ts: the handlers' logger reads its level when its module loads
 * (through the twin's imports), before main() runs. Figures only on stdout.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
