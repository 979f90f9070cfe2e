/**
 * The workflow mechanism: one Lambda per key of `workflowTasks` and one Standard state machine per
 * `infra/workflows/*.asl.json`, its definition read with `DefinitionBody.fromFile` and each
 * `${Task_<key>}` substituted with the ARN of that task's Lambda.
 *
 * The scheduled jobs live here too (`scheduledJobs`: the sweepers that start or resume workflows,
 * DESIGN §7): each is a Lambda built and granted exactly as a task with the same options, run by
 * an EventBridge rule every `rateMinutes`. So do the stream triggers (`streamTriggers`): each is a
 * Lambda built the same way, mapped to the table's stream (found through its SSM parameter) with
 * the trigger's filters, batch size, retries and maximum record age, reporting batch item failures.
 */
import { Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { timeoutOf } from '../../../functions/core/budgets';
import { FAILED_BATCHES_PREFIX } from '../../../functions/core/failed-batches';
import type { ScheduledJob, StreamTrigger, WorkflowTask } from '../../../functions/routes';
import { WORKFLOW_TASK_ACCESS } from '../access';
import type { MarketConfig } from '../config';
import { MarketFunction } from '../constructs/market-function';
import { acknowledge } from '../nag';
import { pascalId, resourceNames, stateMachineName, workflowArnPrefix } from '../names';
import { TASK_PREFIX, type WorkflowFile } from '../workflows';
import { applyAccess, importStateful, type StatefulRefs } from './stateful-refs';

/**
 * How long one tick of a job stays worth running: until the next tick, which does the same work
 * (a sweeper looks at the table afresh). Lambda keeps an asynchronous event at most 6 hours,
 * EventBridge retries a delivery at most 24 hours; both refuse less than a minute.
 */
export function tickLifetime(rateMinutes: number, limitMinutes: number): Duration {
  return Duration.minutes(Math.max(1, Math.min(rateMinutes, limitMinutes)));
}

/**
 * An event source mapping's Amazon S3 on-failure destination: each batch given up on is written to
 * the bucket with its records. CDK's S3OnFailureDestination would grant the function read and write
 * on the whole bucket; `bindFailedBatches` grants what Lambda and the replay need, under the prefix
 * Lambda writes to.
 */
function keptIn(bucket: IBucket): lambda.IEventSourceDlq {
  return { bind: () => ({ destination: bucket.bucketArn }) };
}

export interface WorkflowsStackProps extends StackProps {
  config: MarketConfig;
  assetDir: string;
  tasks: Readonly<Record<string, WorkflowTask>>;
  /** The scheduled jobs (functions/routes.ts `scheduledJobs`); none when omitted. */
  jobs?: Readonly<Record<string, ScheduledJob>>;
  /** The stream triggers (functions/routes.ts `streamTriggers`); none when omitted. */
  streams?: Readonly<Record<string, StreamTrigger>>;
  workflows: readonly WorkflowFile[];
  webOrigin: string;
  /** The live channel's connections endpoint, for tasks that notify (ApiStack.connectionsFor). */
  connectionsFor?: (consumer: Stack) => { apiId: string; stageName: string; callbackUrl: string };
}

export class WorkflowsStack extends Stack {
  /** Task functions by workflowTasks key. */
  readonly tasks: Record<string, MarketFunction> = {};
  /** Job functions by scheduledJobs key. */
  readonly jobs: Record<string, MarketFunction> = {};
  /** The EventBridge rule running each job, by scheduledJobs key. */
  readonly schedules: Record<string, events.Rule> = {};
  /** Stream trigger functions by streamTriggers key. */
  readonly streamFunctions: Record<string, MarketFunction> = {};
  /** State machines by workflow name (file name without `.asl.json`). */
  readonly stateMachines: Record<string, sfn.StateMachine> = {};

  constructor(scope: Construct, id: string, props: WorkflowsStackProps) {
    super(scope, id, props);
    const { config } = props;
    const refs = importStateful(this, config);
    const names = resourceNames(config);

    for (const [key, task] of Object.entries(props.tasks)) {
      this.tasks[key] = this.taskFunction(`Task${pascalId(key)}`, `Workflow task ${key}`, task, {
        props,
        refs,
      });
    }

    const streamTriggers = Object.entries(props.streams ?? {});
    if (streamTriggers.length > 0) {
      const streamTable = dynamodb.Table.fromTableAttributes(this, 'StreamTableRef', {
        tableName: names.tableName,
        tableStreamArn: ssm.StringParameter.valueForStringParameter(
          this,
          names.tableStreamParameter,
        ),
      });
      for (const [key, trigger] of streamTriggers) {
        const id = `Stream${pascalId(key)}`;
        const fn = this.taskFunction(id, `Stream trigger ${key}`, trigger, { props, refs });
        // The batches it gives up on are kept with their records, for it to replay (runsOn jobs).
        fn.bindFailedBatches(refs.failedBatches, FAILED_BATCHES_PREFIX);
        fn.function.addEventSource(
          new DynamoEventSource(streamTable, {
            startingPosition: lambda.StartingPosition.TRIM_HORIZON,
            batchSize: trigger.batchSize,
            retryAttempts: trigger.maxRetryAttempts,
            maxRecordAge: Duration.seconds(trigger.maxRecordAgeSeconds),
            reportBatchItemFailures: true,
            bisectBatchOnError: false,
            filters: trigger.filters.map((pattern) => lambda.FilterCriteria.filter(pattern)),
            onFailure: keptIn(refs.failedBatches),
          }),
        );
        acknowledge(
          fn.function.role ?? fn.function,
          'AwsSolutions-IAM5[Resource::*]',
          'dynamodb:ListStreams (granted with the stream read of an event source mapping) has no ' +
            'resource-level permission; the stream reads name the table stream.',
        );
        this.streamFunctions[key] = fn;
      }
    }

    for (const [key, job] of Object.entries(props.jobs ?? {})) {
      const id = `Job${pascalId(key)}`;
      // A job that runs on a stream trigger's function invokes it; any other gets its own.
      const fn =
        job.runsOn === undefined
          ? this.taskFunction(id, `Scheduled job ${key}`, job, { props, refs })
          : this.streamFunctions[job.runsOn];
      if (fn === undefined) {
        throw new Error(`Scheduled job ${key} runs on ${String(job.runsOn)}, not a stream trigger`);
      }
      // A failed or stale tick is not retried: the next tick does the same work afresh, and a
      // retry landing beside it would only run the sweep twice at once.
      fn.function.configureAsyncInvoke({
        retryAttempts: 0,
        maxEventAge: tickLifetime(job.rateMinutes, 6 * 60),
      });
      this.schedules[key] = new events.Rule(this, `${id}Schedule`, {
        description: `scheduledJobs.${key}: ${job.handler} every ${job.rateMinutes} min`,
        schedule: events.Schedule.rate(Duration.minutes(job.rateMinutes)),
        targets: [
          new targets.LambdaFunction(fn.function, {
            maxEventAge: tickLifetime(job.rateMinutes, 24 * 60),
          }),
        ],
      });
      this.jobs[key] = fn;
    }

    for (const workflow of props.workflows) {
      const id = pascalId(workflow.name);
      const logGroup = new logs.LogGroup(this, `${id}Logs`, {
        // The vendedlogs prefix keeps CloudWatch's resource policy small with many machines.
        logGroupName: `/aws/vendedlogs/states/${names.prefix}-${workflow.name}`,
        retention: config.logRetentionDays as logs.RetentionDays,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      const substitutions: Record<string, string> = {};
      const invoked: string[] = [];
      for (const key of workflow.taskKeys) {
        const fn = this.tasks[key];
        if (fn === undefined) throw new Error(`Workflow ${workflow.name} uses unknown task ${key}`);
        substitutions[`${TASK_PREFIX}${key}`] = fn.functionArn;
        invoked.push(fn.functionArn);
      }
      const machine = new sfn.StateMachine(this, id, {
        // A physical name: the functions that start it build its ARN (names.ts).
        stateMachineName: stateMachineName(config, workflow.name),
        definitionBody: sfn.DefinitionBody.fromFile(workflow.file),
        definitionSubstitutions: substitutions,
        stateMachineType: sfn.StateMachineType.STANDARD,
        logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
        tracingEnabled: true,
      });
      if (invoked.length > 0) {
        // Exactly these functions (no versions or aliases: `:*` is not granted).
        machine.addToRolePolicy(
          new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: invoked }),
        );
      }
      Tags.of(machine).add('market:workflow', workflow.name);
      acknowledge(
        machine.role,
        'AwsSolutions-IAM5[Resource::*]',
        'Step Functions log delivery (logs:*LogDelivery*, DescribeLogGroups, resource policies) ' +
          'and X-Ray tracing support no resource-level permissions.',
      );
      this.stateMachines[workflow.name] = machine;
    }
  }

  /**
   * A task's Lambda (and a job's, built the same way): table writes, and what its options name:
   * `notify` the live channel and SES, `stripe` the Stripe secret, `workflows` StartExecution on
   * exactly those state machines, `callbacks` settling their task tokens.
   */
  private taskFunction(
    id: string,
    what: string,
    task: WorkflowTask,
    { props, refs }: { props: WorkflowsStackProps; refs: StatefulRefs },
  ): MarketFunction {
    const { config } = props;
    const fn = new MarketFunction(this, id, {
      handler: task.handler,
      assetDir: props.assetDir,
      stage: config.stage,
      webOrigin: props.webOrigin,
      logRetentionDays: config.logRetentionDays,
      environment: config.featureEnv,
      timeoutSeconds: timeoutOf(task),
    });
    applyAccess(fn, WORKFLOW_TASK_ACCESS, refs);
    if (task.notify === true) {
      // notify(): the user's live connections and notification e-mails.
      if (props.connectionsFor === undefined) {
        throw new Error(`${what} notifies but no WebSocket API was given`);
      }
      fn.bindConnections(props.connectionsFor(this));
      fn.bindEmailSender(config.emailSender);
    }
    if (task.stripe === true) fn.bindStripeSecret(config.stripeSecretName);
    fn.bindWorkflowStarts(workflowArnPrefix(config), task.workflows ?? []);
    fn.bindTaskCallbacks(workflowArnPrefix(config), task.callbacks ?? []);
    return fn;
  }
}
