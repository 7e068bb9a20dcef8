import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from './api/client';
import { ErrorSummary } from './ui';

/** POST /labels takes at most this many AWBs (a 500-row import is one PDF); a larger run is saved as several PDFs. */
const PER_PDF = 500;

interface Saved {
  name: string;
  url: string;
  count: number;
}

/** Hands a file to the browser's downloads, as a click on a link to it would. */
function save(file: Saved) {
  const link = document.createElement('a');
  link.href = file.url;
  link.download = file.name;
  link.click();
}

/**
 * A button that fetches the labels of these AWBs as one PDF (a page each, POST /labels) and saves
 * it; the links stay for saving again. The API refuses the whole run if one AWB cannot be printed,
 * and its message names each such AWB.
 */
export function LabelsDownload({ awbs, children }: { awbs: string[]; children: string }) {
  const [files, setFiles] = useState<Saved[]>([]);
  useEffect(
    () => () => {
      for (const file of files) URL.revokeObjectURL(file.url);
    },
    [files],
  );
  const download = useMutation({
    mutationFn: async () => {
      const made: Saved[] = [];
      for (let start = 0; start < awbs.length; start += PER_PDF) {
        const part = awbs.slice(start, start + PER_PDF);
        const pdf = await unwrap(api.POST('/custom/api/v1/labels', { body: { awbs: part }, parseAs: 'blob' }));
        const name =
          awbs.length > PER_PDF ? `labels-${start + 1}-${start + part.length}.pdf` : `labels-${part.length}.pdf`;
        made.push({ name, url: URL.createObjectURL(pdf as Blob), count: part.length });
      }
      return made;
    },
    onSuccess: (made) => {
      setFiles(made);
      for (const file of made) save(file);
    },
  });
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={awbs.length === 0 || download.isPending}
        onClick={() => download.mutate()}
      >
        {download.isPending ? 'Making labels…' : children}
      </button>
      <ErrorSummary error={download.error} />
      {files.length > 0 && (
        <p role="status">
          {files.map((file) => (
            <a key={file.url} href={file.url} download={file.name}>
              {file.name} ({file.count} label{file.count === 1 ? '' : 's'})
            </a>
          ))}
        </p>
      )}
    </>
  );
}
