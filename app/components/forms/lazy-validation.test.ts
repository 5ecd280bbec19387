import { describe, expect, it } from 'vitest'
import { lazyValidation } from './lazy-validation.ts'

describe('lazyValidation', () => {
  it('validates on blur, then on input, once a validator is here', () => {
    const validate = () => null
    expect(lazyValidation(validate)).toEqual({ onValidate: validate, shouldValidate: 'onBlur', shouldRevalidate: 'onInput' })
  })

  // conform sends a blurred field to the server for validation when it has no onValidate: until the
  // validators arrive, only a submission is checked (by the server, as without JavaScript).
  it('leaves validation to the server on submit until then', () => {
    expect(lazyValidation(undefined)).toEqual({ onValidate: undefined, shouldValidate: 'onSubmit', shouldRevalidate: 'onSubmit' })
  })
})
