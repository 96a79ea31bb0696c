// The catalogue check's fixture (scripts/check-i18n.cjs): German lacks demo.farewell, which must be reported.
export const keys = ['demo.greeting', 'demo.farewell'];
