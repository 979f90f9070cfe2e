/**
 * The production alarms: what is watched, at what threshold, and what the notification tells the
 * operator to do first (docs/operations.md "Alarms" lists them with their cost). Each alarm is made
 * in the stack of what it watches (constructs/market-alarms.ts) and notifies the monitoring stack's
 * topic; every stack that has alarms is deployed after it.
 *
 * Function errors, every function covered at a sane cost. CloudWatch bills an alarm per metric it
 * reads (0.10 USD a month each), so a metric-math alarm over 10 functions costs what 10 alarms
 * cost, and SEARCH, which would find the functions by itself, is not allowed in an alarm: one alarm
 * per function (about 110) would be about 11 USD a month per stage and a flood of e-mails when one
 * shared cause (the table, Stripe) breaks them all. So each function is covered where its failure
 * shows, by the cheapest metric that sees every failure of it:
 *   - the HTTP route functions (all but about ten functions) by the HTTP API's 5xx, one metric for
 *     every route, new ones included. Lambda's Errors would be blind here: the route middleware
 *     answers an unexpected error with a 500 and returns normally; the 5xx count sees those, and
 *     timeouts, crashes and throttles too;
 *   - the Stripe webhook also by its own 5xx count (a metric filter on the access log): while it
 *     fails, payments go unrecorded;
 *   - the WebSocket handlers by the sum of their Errors (they rethrow what is unexpected), and the
 *     API's ExecutionError (API Gateway could not call them);
 *   - the Cognito triggers by the sum of their Errors, at a higher threshold: refusing a sign-in is
 *     an error too, by Cognito's design;
 *   - the workflow tasks by their state machines' failed and timed-out executions: a task's error is
 *     retried by its state machine (some tasks fail on purpose to be retried later), only what
 *     fails the execution is an incident;
 *   - a scheduled job's own function by its Errors; a stream trigger's function (and the jobs that
 *     run on it) by its Errors, its iterator age and the batches it lost.
 * infra/lib/alarms.test.ts checks that every function of the app is covered by one of these.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { ScheduledJob } from '../../functions/routes';
import type { MarketConfig } from './config';
import { ALARM_PERIOD, MarketAlarms, MAX_ALARM_METRICS, sumOf } from './constructs/market-alarms';
import { resourceNames, stateMachineName } from './names';
import type { ApiStack } from './stacks/api-stack';
import type { IdentityStack } from './stacks/identity-stack';
import type { MonitoringStack } from './stacks/monitoring-stack';
import type { WorkflowsStack } from './stacks/workflows-stack';

/** The handler of Stripe's webhook call (functions/payments): its failures have their own alarm. */
export const STRIPE_WEBHOOK_HANDLER = 'payments/handlers/webhook';

/** How far behind the table's stream a stream trigger may fall: what follows a bid waits that long. */
export const STREAM_LAG_LIMIT = Duration.seconds(60);

/**
 * Failed sign-in steps in 5 minutes before the triggers' alarm: a trigger refuses a blocked
 * account or a throttled login by failing (LoginRefused), so a few errors are expected.
 */
export const SIGN_IN_TRIGGER_ERRORS = 5;

/**
 * What the functions do to the table (their repos and the stream triggers' reads). Scan is never
 * granted; each of these is one metric of the table's alarms, which may read 10 at most.
 */
export const TABLE_OPERATIONS: readonly dynamodb.Operation[] = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
  dynamodb.Operation.GET_RECORDS,
];

/** The statuses API Gateway answers a failed call with (route answer, crash, bad answer, timeout). */
const SERVER_ERROR_STATUSES = ['500', '502', '503', '504'];

const SEE = 'docs/operations.md "Alarms".';

export interface AlarmTargets {
  config: MarketConfig;
  monitoring: MonitoringStack;
  api: ApiStack;
  /** Absent when an existing user pool is imported (no triggers of ours). */
  identity: IdentityStack | undefined;
  workflows: WorkflowsStack | undefined;
  /** The scheduled jobs (their rates), functions/routes.ts `scheduledJobs`. */
  jobs: Readonly<Record<string, ScheduledJob>>;
  /** The Stripe webhook's route key, when the route table has the call. */
  stripeWebhookRoute: string | undefined;
}

/** `auctionSweep` → `auction-sweep` (alarm names). */
export function kebabCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * How a job's errors are judged: per tick (a period of its rate, at most a day), alarming when 2
 * of the last 3 ticks failed (a single failed tick is done again by the next one), or when the
 * only tick a day failed.
 */
export function jobErrorWindow(rateMinutes: number): {
  period: Duration;
  evaluationPeriods: number;
  datapointsToAlarm: number;
} {
  const minutes = Math.min(rateMinutes, 24 * 60);
  const evaluationPeriods = Math.max(1, Math.min(3, Math.floor((24 * 60) / minutes)));
  return {
    period: Duration.minutes(minutes),
    evaluationPeriods,
    datapointsToAlarm: Math.min(2, evaluationPeriods),
  };
}

/** Groups of at most MAX_ALARM_METRICS, the most one alarm may read. */
function inGroups<T>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += MAX_ALARM_METRICS) {
    groups.push(items.slice(start, start + MAX_ALARM_METRICS));
  }
  return groups;
}

/** `name`, then `name-2`, ... for the further groups of one sum. */
function groupName(name: string, index: number): string {
  return index === 0 ? name : `${name}-${index + 1}`;
}

export function addAlarms(targets: AlarmTargets): void {
  const { config, monitoring } = targets;
  const names = resourceNames(config);
  const alarmsIn = (stack: Stack): MarketAlarms => {
    if (stack !== monitoring) {
      stack.addStackDependency(monitoring, 'its alarms notify the alarm topic');
    }
    return new MarketAlarms(stack, 'Alarms', {
      config,
      ...(stack === monitoring ? { topic: monitoring.topic } : {}),
    });
  };

  // --- The table, by name as every stateless stack finds it ---------------------------------------
  const tableAlarms = alarmsIn(monitoring);
  const table = dynamodb.Table.fromTableName(monitoring, 'TableRef', names.tableName);
  // One metric per operation, summed by sumOf: CDK's metric*ForOperations helpers add them up
  // with `+`, which has no value at a time when one operation reported nothing.
  const perOperation = (metricName: string): cloudwatch.IMetric[] =>
    TABLE_OPERATIONS.map((operation) =>
      table.metric(metricName, {
        dimensionsMap: { TableName: names.tableName, Operation: operation },
        statistic: cloudwatch.Stats.SUM,
        period: ALARM_PERIOD,
      }),
    );
  tableAlarms.add({
    name: 'table-throttled',
    metric: sumOf('Throttled requests', perOperation('ThrottledRequests')),
    description:
      `DynamoDB throttled requests on table ${names.tableName}. The table is on demand, so this is ` +
      'a hot partition key or the account table limit; the SDK retries, what still fails shows as ' +
      'API 5xx. First: ThrottledRequests by Operation, and Contributor Insights for the key. ' +
      SEE,
  });
  tableAlarms.add({
    name: 'table-system-errors',
    metric: sumOf('System errors', perOperation('SystemErrors')),
    description:
      `DynamoDB answered HTTP 500 (SystemErrors) on table ${names.tableName}: a DynamoDB-side ` +
      'failure, retried by the SDK. First: the AWS Health Dashboard for DynamoDB in this region; ' +
      'the API 5xx alarm says whether callers saw it. ' +
      SEE,
  });

  // --- The APIs ----------------------------------------------------------------------------------
  const api = targets.api;
  const apiAlarms = alarmsIn(api);
  apiAlarms.add({
    name: 'http-api-5xx',
    metric: api.httpApi.metricServerError({ period: ALARM_PERIOD }),
    description:
      'The HTTP API answered 5xx: a call failed unexpectedly (500), its function crashed, timed ' +
      'out or was throttled, or a dependency was unavailable (503). First: Logs Insights on the ' +
      'API access log, `filter status >= 500`, gives the route; its function log has the ' +
      '"unexpected error" line with the request id. ' +
      SEE,
  });
  if (targets.stripeWebhookRoute !== undefined) {
    const failedWebhooks = new logs.MetricFilter(api, 'StripeWebhookServerErrors', {
      logGroup: api.httpAccessLogs,
      filterPattern: logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.routeKey', '=', targets.stripeWebhookRoute),
        logs.FilterPattern.any(
          ...SERVER_ERROR_STATUSES.map((status) =>
            logs.FilterPattern.stringValue('$.status', '=', status),
          ),
        ),
      ),
      metricNamespace: names.prefix,
      metricName: 'StripeWebhookServerErrors',
      metricValue: '1',
    });
    apiAlarms.add({
      name: 'stripe-webhook-5xx',
      metric: failedWebhooks.metric({ statistic: cloudwatch.Stats.SUM, period: ALARM_PERIOD }),
      description:
        `Stripe's webhook (${targets.stripeWebhookRoute}) answered 5xx: payment events (saved ` +
        'cards, paid orders, refunds, Connect accounts) are not recorded; Stripe retries each for ' +
        'up to 3 days. First: the webhook function log ("unexpected error"); once fixed, the ' +
        "Stripe Dashboard's event page resends what failed. " +
        SEE,
    });
  }
  apiAlarms.add({
    name: 'live-execution-errors',
    metric: api.webSocketStage.metric('ExecutionError', {
      statistic: cloudwatch.Stats.SUM,
      period: ALARM_PERIOD,
    }),
    description:
      'API Gateway could not call a live-channel (WebSocket) handler. First: the WebSocket access ' +
      "log's error field, and the handlers' Throttles. " +
      SEE,
  });
  const liveHandlers = Object.values(api.webSocketFunctions);
  inGroups(liveHandlers).forEach((group, index) => {
    apiAlarms.add({
      name: groupName('live-function-errors', index),
      metric: sumOf(
        'WebSocket handler errors',
        group.map((fn) => fn.function.metricErrors({ period: ALARM_PERIOD })),
      ),
      description:
        `A live-channel handler (${group.map((fn) => fn.handlerPath).join(', ')}) failed: ` +
        "clients could not connect or a message was lost. First: the handlers' logs, " +
        '"unexpected error" lines. ' +
        SEE,
    });
  });

  // --- Sign-in -----------------------------------------------------------------------------------
  const triggers = Object.values(targets.identity?.triggers ?? {});
  if (targets.identity !== undefined && triggers.length > 0) {
    const identityAlarms = alarmsIn(targets.identity);
    inGroups(triggers).forEach((group, index) => {
      identityAlarms.add({
        name: groupName('sign-in-trigger-errors', index),
        metric: sumOf(
          'Sign-in trigger errors',
          group.map((fn) => fn.function.metricErrors({ period: ALARM_PERIOD })),
        ),
        threshold: SIGN_IN_TRIGGER_ERRORS,
        description:
          `The Cognito sign-in triggers failed ${SIGN_IN_TRIGGER_ERRORS} times or more in 5 ` +
          'minutes. A refusal is a failure too (LoginRefused: blocked account, too many wrong ' +
          `pins; an attack shows in the WAF metric ${names.prefix}-login-per-ip); anything else ` +
          "means sign-ins fail. First: the trigger functions' logs. " +
          SEE,
      });
    });
  }

  // --- Workflows, scheduled jobs, stream triggers ------------------------------------------------
  const workflows = targets.workflows;
  if (workflows === undefined) return;
  let workflowAlarms: MarketAlarms | undefined;
  const inWorkflows = (): MarketAlarms => (workflowAlarms ??= alarmsIn(workflows));

  for (const [workflow, machine] of Object.entries(workflows.stateMachines)) {
    const machineName = stateMachineName(config, workflow);
    const first =
      `First: the execution in the Step Functions console (its log group ` +
      `/aws/vendedlogs/states/${machineName}), then docs/operations.md "Workflows" on starting ` +
      'it again. ';
    inWorkflows().add({
      name: `workflow-${workflow}-failed`,
      metric: machine.metricFailed({ period: ALARM_PERIOD }),
      description: `An execution of ${machineName} failed. ${first}${SEE}`,
    });
    inWorkflows().add({
      name: `workflow-${workflow}-timed-out`,
      metric: machine.metricTimedOut({ period: ALARM_PERIOD }),
      description: `An execution of ${machineName} timed out. ${first}${SEE}`,
    });
  }

  const triggerFunctions = new Set(Object.values(workflows.streamFunctions));
  for (const [key, fn] of Object.entries(workflows.jobs)) {
    // A job that runs on a stream trigger's function is watched with the trigger (below).
    if (triggerFunctions.has(fn)) continue;
    const job = targets.jobs[key];
    if (job === undefined) throw new Error(`Scheduled job ${key} has a function but no entry`);
    const window = jobErrorWindow(job.rateMinutes);
    inWorkflows().add({
      name: `job-${kebabCase(key)}-errors`,
      metric: fn.function.metricErrors({ period: window.period }),
      evaluationPeriods: window.evaluationPeriods,
      datapointsToAlarm: window.datapointsToAlarm,
      description:
        `Scheduled job ${key} (${job.handler}, every ${job.rateMinutes} min) failed in ` +
        `${window.datapointsToAlarm} of its last ${window.evaluationPeriods} runs: the work it ` +
        'sweeps up waits. Each run starts afresh, so it recovers once the cause is gone. First: ' +
        'its function log. ' +
        SEE,
    });
  }

  for (const [key, fn] of Object.entries(workflows.streamFunctions)) {
    const name = `stream-${kebabCase(key)}`;
    const replay =
      'Batches it gives up on are kept in the failed-batches bucket and replayed by its job ' +
      '(docs/operations.md "Stream batches given up on"). ';
    inWorkflows().add({
      name: `${name}-iterator-age`,
      metric: fn.function.metric('IteratorAge', {
        statistic: cloudwatch.Stats.MAXIMUM,
        period: ALARM_PERIOD,
      }),
      threshold: STREAM_LAG_LIMIT.toMilliseconds(),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      description:
        `Stream trigger ${key} is more than ${STREAM_LAG_LIMIT.toSeconds()} s behind the table's ` +
        'stream: what it carries out is late (a batch being retried, throttling, or more writes ' +
        "than it keeps up with). First: the function's Errors and Throttles and its log. " +
        replay +
        SEE,
    });
    inWorkflows().add({
      name: `${name}-delivery-failures`,
      metric: fn.function.metric('DestinationDeliveryFailures', {
        statistic: cloudwatch.Stats.SUM,
        period: ALARM_PERIOD,
      }),
      description:
        `Lambda could not keep a batch stream trigger ${key} gave up on in the failed-batches ` +
        'bucket: its records are lost, nothing will replay them. First: the bucket and the ' +
        "function role's s3:PutObject on it; the function log shows the batch that failed. " +
        SEE,
    });
    inWorkflows().add({
      name: `${name}-errors`,
      metric: fn.function.metricErrors({ period: ALARM_PERIOD }),
      description:
        `The function of stream trigger ${key} (${fn.handlerPath}) failed: a whole batch is ` +
        'retried, or a replay of kept batches failed. First: its log. ' +
        replay +
        SEE,
    });
  }
}
