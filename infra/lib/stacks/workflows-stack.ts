/**
 * The workflow mechanism: one Lambda per key of `workflowTasks` and one Standard state machine per
 * `infra/workflows/*.asl.json`, its definition read with `DefinitionBody.fromFile` and each
 * `${Task_<key>}` substituted with the ARN of that task's Lambda.
 */
import { Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { WorkflowTask } from '../../../functions/routes';
import { WORKFLOW_TASK_ACCESS } from '../access';
import type { MarketConfig } from '../config';
import { MarketFunction } from '../constructs/market-function';
import { acknowledge } from '../nag';
import { pascalId, resourceNames, stateMachineName, workflowArnPrefix } from '../names';
import { TASK_PREFIX, type WorkflowFile } from '../workflows';
import { applyAccess, importStateful } from './stateful-refs';

export interface WorkflowsStackProps extends StackProps {
  config: MarketConfig;
  assetDir: string;
  tasks: Readonly<Record<string, WorkflowTask>>;
  workflows: readonly WorkflowFile[];
  webOrigin: string;
  /** The live channel's connections endpoint, for tasks that notify (ApiStack.connectionsFor). */
  connectionsFor?: (consumer: Stack) => { apiId: string; stageName: string; callbackUrl: string };
}

export class WorkflowsStack extends Stack {
  /** Task functions by workflowTasks key. */
  readonly tasks: Record<string, MarketFunction> = {};
  /** State machines by workflow name (file name without `.asl.json`). */
  readonly stateMachines: Record<string, sfn.StateMachine> = {};

  constructor(scope: Construct, id: string, props: WorkflowsStackProps) {
    super(scope, id, props);
    const { config } = props;
    const refs = importStateful(this, config);
    const names = resourceNames(config);

    for (const [key, task] of Object.entries(props.tasks)) {
      const fn = new MarketFunction(this, `Task${pascalId(key)}`, {
        handler: task.handler,
        assetDir: props.assetDir,
        stage: config.stage,
        webOrigin: props.webOrigin,
        logRetentionDays: config.logRetentionDays,
        environment: config.featureEnv,
        // A task loads state, runs the pure transition, writes and performs its effects.
        timeout: Duration.seconds(60),
      });
      applyAccess(fn, WORKFLOW_TASK_ACCESS, refs);
      if (task.notify === true) {
        // notify(): the user's live connections and notification e-mails.
        if (props.connectionsFor === undefined) {
          throw new Error(`Workflow task ${key} notifies but no WebSocket API was given`);
        }
        fn.bindConnections(props.connectionsFor(this));
        fn.bindEmailSender(config.emailSender);
      }
      if (task.stripe === true) fn.bindStripeSecret(config.stripeSecretName);
      fn.bindWorkflowStarts(workflowArnPrefix(config), task.workflows ?? []);
      fn.bindTaskCallbacks(workflowArnPrefix(config), task.callbacks ?? []);
      this.tasks[key] = fn;
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
}
