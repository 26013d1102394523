import { unreadDataFileProblems } from '../../store/dataFilesSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { Banner } from '../../ui/Banner.tsx';

/**
 * The data files Atrium found damaged in this run, above every view: which file, what is wrong, where
 * the untouched copy is (or that it was left where it is, while the person fixes it) and how to get back
 * what it held. A newly found one shows again after Hide; one left in place goes once it is fixed.
 */
export function DataFileProblems() {
  const problems = useAtriumStore((state) => state.dataFileProblems);
  const unread = useAtriumStore(unreadDataFileProblems);
  const hide = useAtriumStore((state) => state.hideDataFileProblems);
  if (!unread) return null;
  return (
    <Banner tone="alert">
      <div className="data-file-problems" aria-label="Damaged data files">
        {problems.map((problem, index) => (
          <section key={`${problem.file}-${problem.keptAt ?? index}`} className="data-file-problem">
            <p className="banner-title">
              {problem.file} could not be read: {problem.problem}.
            </p>
            <p>
              {problem.inPlace ? (
                <>It was left as it is; {problem.withoutIt}.</>
              ) : problem.keptAt ? (
                <>
                  It was set aside unchanged as <code className="data-file-path">{problem.keptAt}</code>; {problem.withoutIt}.
                </>
              ) : (
                <>It could not be set aside, so Atrium leaves it as it is and does not write it; {problem.withoutIt}.</>
              )}
            </p>
            <p>{problem.recovery.length > 1 ? 'To recover, either:' : 'To recover:'}</p>
            <ul>
              {problem.recovery.map((way) => (
                <li key={way}>{way}</li>
              ))}
            </ul>
          </section>
        ))}
        <button type="button" className="button button-small" onClick={hide}>
          Hide
        </button>
      </div>
    </Banner>
  );
}
