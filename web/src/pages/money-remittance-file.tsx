import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatRupees, statusLabel } from '../format';
import { ErrorSummary, Loading } from '../ui';

type Imported = NonNullable<Awaited<ReturnType<typeof uploadRemittances>>>;

/** A multipart upload through the typed client: the route's JSON body type stands for the form's fields. */
function uploadRemittances(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return unwrap(
    api.POST('/custom/api/v1/cod/remittance-files', { body: { file: file.name }, bodySerializer: () => form }),
  );
}

/** The import of a courier's remittance file, and what it did line by line. */
export function RemittanceUpload() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | undefined>();
  const upload = useMutation({
    mutationFn: uploadRemittances,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['money'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  return (
    <section className="card" aria-labelledby="remittance-upload">
      <h2 id="remittance-upload">Import a remittance file</h2>
      <p>
        A courier's CSV of what it paid: Dakiya's columns <code>awb,amount,utr,remittance_date</code> or Delhivery's{' '}
        <code>Waybill,COD Amount,UTR No,Remittance Date</code>. The good lines are applied, every other line is listed
        with its number and why; the same file twice changes nothing.
      </p>
      <form className="upload" onSubmit={submit}>
        <div className="field">
          <label htmlFor="remittance-file">Remittance file (CSV)</label>
          <input
            id="remittance-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setFile(e.target.files?.[0])}
          />
        </div>
        <button type="submit" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Importing…' : 'Import file'}
        </button>
      </form>
      {upload.isPending && <Loading what="the file" />}
      <ErrorSummary error={upload.error} />
      {upload.data && <ImportResult result={upload.data} />}
    </section>
  );
}

function ImportResult({ result }: { result: Imported }) {
  return (
    <section className="import-result" aria-label="Import result">
      <p role="status">
        {result.file_name ?? 'The file'}: {result.lines} lines, {result.applied} applied (
        {formatRupees(result.applied_amount)}), {result.duplicates} already imported, {result.problem_count} with
        problems, {result.discrepancies} discrepancies found.
      </p>
      {result.problems.length > 0 && (
        <table className="data responsive">
          <caption>
            {result.problem_count > result.problems.length
              ? `Lines not applied: the first ${result.problems.length} of ${result.problem_count}`
              : 'Lines not applied'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">AWB</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {result.problems.map((p) => (
              <tr key={p.line}>
                <td data-label="Line">{p.line}</td>
                <td data-label="AWB">{p.awb ?? '—'}</td>
                <td data-label="Reason">{p.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result.found.length > 0 && (
        <table className="data responsive">
          <caption>
            {result.discrepancies > result.found.length
              ? `Discrepancies found: the first ${result.found.length} of ${result.discrepancies}`
              : 'Discrepancies found'}
          </caption>
          <thead>
            <tr>
              <th scope="col">AWB</th>
              <th scope="col">Kind</th>
              <th scope="col">Expected</th>
              <th scope="col">Received</th>
              <th scope="col">Difference</th>
            </tr>
          </thead>
          <tbody>
            {result.found.map((d) => (
              <tr key={d.id}>
                <td data-label="AWB">{d.awb}</td>
                <td data-label="Kind">{statusLabel(d.kind)}</td>
                <td data-label="Expected">{formatRupees(d.expected_amount)}</td>
                <td data-label="Received">{formatRupees(d.received_amount)}</td>
                <td data-label="Difference">{formatRupees(d.difference)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
