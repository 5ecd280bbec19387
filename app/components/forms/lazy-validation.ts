import { useEffect, useState } from 'react'

/**
 * Client-side validation without zod in the page's first load (issue 11 JS budget, decision 099): the
 * module holding a form's validators (and the zod schemas behind them) is imported when the user first
 * focuses a field (blur validation needs a focus first), and until it is here the form is checked by
 * the server alone, as without JavaScript. The constraints the
 * fields render (`required`, `maxLength`…) come from the loader, computed on the server.
 *
 * `useForm({ ...lazyValidation(validators?.login), … })`: blur validation only once a validator exists —
 * conform asks the server to validate a blurred field when it has no `onValidate`.
 */
export function useLazyValidators<M>(load: () => Promise<M>): M | null {
  const [validators, setValidators] = useState<M | null>(null)
  useEffect(() => {
    let live = true
    const start = () => {
      document.removeEventListener('focusin', start)
      load().then(
        (m) => live && setValidators(() => m),
        () => {}, // offline or a stale deployment: the server still validates every submission
      )
    }
    if (document.activeElement && document.activeElement !== document.body) start()
    else document.addEventListener('focusin', start)
    return () => {
      live = false
      document.removeEventListener('focusin', start)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per mount
  }, [])
  return validators
}

export function lazyValidation<V>(validate: V | undefined) {
  return validate
    ? ({ onValidate: validate, shouldValidate: 'onBlur', shouldRevalidate: 'onInput' } as const)
    : ({ onValidate: undefined, shouldValidate: 'onSubmit', shouldRevalidate: 'onSubmit' } as const)
}
