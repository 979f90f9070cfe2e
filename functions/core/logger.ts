import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The structured logger (Powertools): JSON lines with level, message, service, request id and
 * whatever keys a call appends. LOG_LEVEL and POWERTOOLS_SERVICE_NAME come from the environment.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'market' });
