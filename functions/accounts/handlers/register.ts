import { DomainError } from '../../core/errors';
import { httpHandler, Reply } from '../../core/http';
import { registerBodySchema } from '../../../shared/schemas/accounts';
import { IDEMPOTENCY_KEY_PATTERN, register } from '../register';
import { registerDeps } from '../register.deps';

/** POST /api/users/register */
export const handler = httpHandler(
  { auth: 'public', body: registerBodySchema },
  async ({ body, event, now }) => {
    const idempotencyKey = event.headers?.['idempotency-key'];
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new DomainError('invalid_request', {
        message: 'The Idempotency-Key header is not valid (8–128 letters, digits, _ . : -).',
        fields: { 'Idempotency-Key': 'forms.validation.invalid' },
      });
    }
    const { result } = await register(registerDeps(), { user: body.user, idempotencyKey }, now);
    return new Reply(201, result);
  },
);
