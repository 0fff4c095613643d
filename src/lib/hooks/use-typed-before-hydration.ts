import { useLayoutEffect, type RefObject } from 'react';

/**
 * A pre-rendered form can be typed into before the app takes it over. React keeps the typed text
 * in the fields while hydrating, but the form's state is still empty and its next render would
 * wipe them: this hands the typed values to `keep`, once, as the form mounts.
 */
export function useTypedBeforeHydration(form: RefObject<HTMLFormElement | null>, keep: (typed: Record<string, string>) => void): void {
  useLayoutEffect(() => {
    if (!form.current) return;
    const typed: Record<string, string> = {};
    for (const field of form.current.elements) {
      const initial =
        field instanceof HTMLInputElement
          ? field.defaultValue
          : field instanceof HTMLSelectElement
            ? ([...field.options].find((option) => option.defaultSelected) ?? field.options[0])?.value
            : undefined;
      if (initial !== undefined && (field as HTMLInputElement | HTMLSelectElement).name) {
        const { name, value } = field as HTMLInputElement | HTMLSelectElement;
        if (value !== initial) typed[name] = value;
      }
    }
    if (Object.keys(typed).length > 0) keep(typed);
    // Once, on mount: later values are the form's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
