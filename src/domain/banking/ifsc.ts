// Indian Financial System Codes (IFSC), checked offline against the list RBI publishes as Razorpay's
// `ifsc` package carries it (issue 50: "IFSC validated offline against the published IFSC list").
// The data is the package's: per bank code, its branches (the last six characters, a number when
// they are digits); the banks' names; and the sublets, branches of one bank that clear for another
// (a co-operative bank through a sponsor's code), whose own name is the one to show.

/** An IFSC: four letters naming the bank, a zero kept for future use, six characters naming the branch. */
export const IFSC_FORM = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** The `ifsc` package's data files, as they parse. */
export interface IfscData {
  /** Bank code → its branch codes (a number for an all-digit branch code, as the package keeps them). */
  branches: Readonly<Record<string, readonly (number | string)[]>>;
  /** Bank code → the bank's name. */
  bankNames: Readonly<Record<string, string>>;
  /** Whole IFSC → the bank code of the bank it is sublet to. */
  sublets: Readonly<Record<string, string>>;
  /** IFSC prefix → the bank code (or the name) of the bank branches under it are sublet to. */
  customSublets: Readonly<Record<string, string>>;
}

export interface Bank {
  ifsc: string;
  /** The bank's name as the buyer knows it; the code when the list names no bank for it. */
  name: string;
}

export interface IfscDirectory {
  /** The bank of a published IFSC (upper case, as IFSC_FORM has it); undefined when the list lacks it. */
  bankOf(ifsc: string): Bank | undefined;
}

export function createIfscDirectory(load: () => IfscData): IfscDirectory {
  // Read at the first look-up: a megabyte of JSON no process pays for until a buyer gives a bank account.
  let data: IfscData | undefined;
  const branchSets = new Map<string, Set<number | string>>();
  const branchesOf = (bankCode: string) => {
    let set = branchSets.get(bankCode);
    if (!set) {
      set = new Set(data!.branches[bankCode] ?? []);
      branchSets.set(bankCode, set);
    }
    return set;
  };
  return {
    bankOf(ifsc) {
      if (!IFSC_FORM.test(ifsc)) return undefined;
      data ??= load();
      const bankCode = ifsc.slice(0, 4);
      if (!Object.hasOwn(data.branches, bankCode)) return undefined;
      const branch = ifsc.slice(5);
      if (!branchesOf(bankCode).has(/^\d+$/.test(branch) ? Number(branch) : branch)) return undefined;
      const sublet =
        data.sublets[ifsc] ??
        Object.entries(data.customSublets).find(([prefix]) => ifsc.startsWith(prefix))?.[1] ??
        bankCode;
      const name = data.bankNames[sublet] ?? (sublet.length > 4 ? sublet : (data.bankNames[bankCode] ?? bankCode));
      return { ifsc, name };
    },
  };
}
