/** The interface's warning before resending work whose outcome is uncertain. */
export function RetryAnywayWarning({ count }: { count: number }) {
  return (
    <>
      <p>
        <strong>
          {count === 1 ? 'This request' : `These ${count.toLocaleString('en-US')} requests`} may
          have finished and been charged.
        </strong>{' '}
        The gateway timed out after the request was sent, so the image may exist on its side.
        Retrying sends the request again and may be charged again.
      </p>
      <p className="muted">
        Check the gateway’s usage log for the request ids first (in each job’s details).
      </p>
    </>
  );
}
