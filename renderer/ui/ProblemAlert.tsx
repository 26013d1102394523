/** What went wrong with the action the person just took, announced at once; nothing when all is well. */
export function ProblemAlert({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="consent-problem" role="alert">
      {text}
    </p>
  );
}
