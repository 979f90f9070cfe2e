/**
 * cdk-nag (AwsSolutions) wiring. Every acknowledgement goes through `acknowledge`, which insists on
 * a reason; IAM wildcard findings are acknowledged one resource at a time (never the whole rule).
 */
import { Stack, Validations, type PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/** Registers the AwsSolutions pack: `cdk synth` fails on any unacknowledged error or warning. */
export function enableNag(scope: IConstruct): void {
  Validations.of(scope).addPlugins(new AwsSolutionsChecks(scope));
}

/** Runs AwsSolutions over a synthesized app and returns what is not acknowledged. */
export function nagViolations(scope: IConstruct): PolicyViolation[] {
  return [...new AwsSolutionsChecks().validateScope(scope).violations];
}

/** Acknowledges one rule (or one finding, `Rule[finding]`) on a construct and its children. */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  if (reason.trim().length < 20) {
    throw new Error(`The acknowledgement of ${id} on ${scope.node.path} needs a real reason`);
  }
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * The AwsSolutions-IAM5 finding id cdk-nag reports for a wildcard resource (as cdk-nag flattens
 * it: `${Token}` → `<Token>`). Only for resources built from same-stack tokens and pseudo
 * parameters: cross-stack references resolve differently after synthesis.
 */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}

/** Formats violations one per line, for error messages and test output. */
export function formatViolations(violations: readonly PolicyViolation[]): string {
  return violations
    .flatMap((violation) =>
      violation.violatingResources.map(
        (resource) =>
          `${violation.severity ?? 'error'} ${violation.ruleName} at ${resource.constructPath ?? resource.resourceLogicalId}: ${violation.description}`,
      ),
    )
    .join('\n');
}
