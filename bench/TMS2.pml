/*
 * TMS2 (DGLM13) in Promela, written from specs/TMS2.yaml for comparing
 * ladder's explorer with SPIN on the same state space.
 *
 * Instance: compile with -DNT=.. -DNL=.. -DNV=.. (1..4 transactions, 1..3
 * locations, 1..3 values), e.g. spin -DNT=2 -DNL=2 -DNV=2 -a TMS2.pml.
 *
 * One state of this model is one state of TMS2: the variables are those of
 * specs/TMS2.yaml, flattened into byte arrays.
 *   mems[n*NL + l]   memory n at location l (V#i is i); nmems = len(mems)
 *   pc[t]            the PC enum, by ordinal
 *   beginIdx[t]
 *   rdSet[t*NL + l], wrSet[t*NL + l]   Option[V]: 0 is None, v+1 is Some(V#v)
 *   argL[t], argV[t], valRead[t]
 * The constants v0 and l0 are V#0 and L#0 (ladder's defaults), so the start
 * state is all zeros with nmems = 1. mems never holds more than NT+1
 * memories (each transaction appends at most one, when it commits), and its
 * unused entries stay 0, so equal TMS2 states are equal state vectors.
 *
 * Every action instance (an action with values for its parameters) is one
 * alternative of the single loop, a d_step whose first statement is the
 * precondition: SPIN stores only the states at the loop's head, one per
 * TMS2 state. Parameters that the precondition determines (DoRead's l,
 * ReadResp's v, DoWrite's l and v) are not enumerated, and DoRead's and
 * DoCommitReadOnly's index n is enumerated over 0..NT. Each d_step ends by
 * asserting the four invariants of specs/TMS2.yaml in the new state.
 * The loop is labelled end: a state where every transaction has finished
 * enables nothing, as in TMS2.
 */

#ifndef NT
#define NT 2
#endif
#ifndef NL
#define NL 2
#endif
#ifndef NV
#define NV 2
#endif
#define MAXM (NT + 1)

/* PC */
#define NotStarted       0
#define BeginPending     1
#define Ready            2
#define ReadPending      3
#define ReadResponding   4
#define WritePending     5
#define WriteResponding  6
#define CommitPending    7
#define CommitResponding 8
#define Committed        9
#define Aborted          10

byte mems[MAXM * NL];
byte nmems = 1;
byte pc[NT];
byte beginIdx[NT];
byte rdSet[NT * NL];
byte wrSet[NT * NL];
byte argL[NT];
byte argV[NT];
byte valRead[NT];

#define MEM(n, l) mems[(n) * NL + (l)]
#define RD(t, l)  rdSet[(t) * NL + (l)]
#define WR(t, l)  wrSet[(t) * NL + (l)]

/* repetition over the elements of the instance */
#if NT == 1
#define EACH_T(M) M(0)
#elif NT == 2
#define EACH_T(M) M(0) M(1)
#elif NT == 3
#define EACH_T(M) M(0) M(1) M(2)
#elif NT == 4
#define EACH_T(M) M(0) M(1) M(2) M(3)
#endif
#if NL == 1
#define EACH_L(M, t) M(t, 0)
#define EACH_L3(M, a, b) M(a, b, 0)
#define ALL_L(P, a, b) (P(a, b, 0))
#elif NL == 2
#define EACH_L(M, t) M(t, 0) M(t, 1)
#define EACH_L3(M, a, b) M(a, b, 0) M(a, b, 1)
#define ALL_L(P, a, b) (P(a, b, 0) && P(a, b, 1))
#elif NL == 3
#define EACH_L(M, t) M(t, 0) M(t, 1) M(t, 2)
#define EACH_L3(M, a, b) M(a, b, 0) M(a, b, 1) M(a, b, 2)
#define ALL_L(P, a, b) (P(a, b, 0) && P(a, b, 1) && P(a, b, 2))
#endif
#if NV == 1
#define EACH_V(M, t, l) M(t, l, 0)
#elif NV == 2
#define EACH_V(M, t, l) M(t, l, 0) M(t, l, 1)
#elif NV == 3
#define EACH_V(M, t, l) M(t, l, 0) M(t, l, 1) M(t, l, 2)
#endif
/* memory indices 0..NT (the range in 0..len(mems) is cut by n < nmems) */
#if NT == 1
#define EACH_N(M, t) M(t, 0) M(t, 1)
#elif NT == 2
#define EACH_N(M, t) M(t, 0) M(t, 1) M(t, 2)
#elif NT == 3
#define EACH_N(M, t) M(t, 0) M(t, 1) M(t, 2) M(t, 3)
#elif NT == 4
#define EACH_N(M, t) M(t, 0) M(t, 1) M(t, 2) M(t, 3) M(t, 4)
#endif
#if NT == 1
#define ALL_T(P) (P(0))
#elif NT == 2
#define ALL_T(P) (P(0) && P(1))
#elif NT == 3
#define ALL_T(P) (P(0) && P(1) && P(2))
#elif NT == 4
#define ALL_T(P) (P(0) && P(1) && P(2) && P(3))
#endif

/* rdSet[t] subset mems[n], at location l */
#define RD_IN(t, n, l) (RD(t, l) == 0 || RD(t, l) == MEM(n, l) + 1)
/* validIdx(t, n) */
#define VALID(t, n) (beginIdx[t] <= (n) && (n) < nmems && ALL_L(RD_IN, t, n))
/* readOnly(t) */
#define WR_NONE(t, x, l) (WR(t, l) == 0)
#define READONLY(t) ALL_L(WR_NONE, t, 0)

/* the invariants */
#define BEGIN_OK(t) (beginIdx[t] < nmems)
#define EMPTY_AT(t, x, l) (RD(t, l) == 0 && WR(t, l) == 0)
#define EMPTY_OK(t) (!(pc[t] == NotStarted || pc[t] == BeginPending) || ALL_L(EMPTY_AT, t, 0))
#define RESP_AT(t, x, l) (argL[t] != (l) || (WR(t, l) != 0 -> valRead[t] == WR(t, l) - 1 : RD(t, l) == valRead[t] + 1))
#define RESP_OK(t) (pc[t] != ReadResponding || ALL_L(RESP_AT, t, 0))
#define INV (nmems >= 1 && ALL_T(BEGIN_OK) && ALL_T(EMPTY_OK) && ALL_T(RESP_OK))

#define STEP(guard, eff) :: d_step { guard -> eff; assert(INV) }

#define BEGIN_INV(t)   STEP(pc[t] == NotStarted, pc[t] = BeginPending; beginIdx[t] = nmems - 1)
#define BEGIN_RESP(t)  STEP(pc[t] == BeginPending, pc[t] = Ready)
#define READ_INV(t, l) STEP(pc[t] == Ready, pc[t] = ReadPending; argL[t] = l)
#define READ_INVS(t)   EACH_L(READ_INV, t)
/* DoRead(t, argL[t], n) */
#define DO_READ_AT(t, n, l) \
	STEP(pc[t] == ReadPending && argL[t] == (l) && (n) < nmems && (WR(t, l) != 0 || VALID(t, n)), \
	     if :: WR(t, l) != 0 -> valRead[t] = WR(t, l) - 1 \
	        :: else -> valRead[t] = MEM(n, l); RD(t, l) = MEM(n, l) + 1 fi; \
	     pc[t] = ReadResponding)
#define DO_READ_N(t, n) EACH_L3(DO_READ_AT, t, n)
#define DO_READ(t)      EACH_N(DO_READ_N, t)
/* ReadResp(t, valRead[t]) */
#define READ_RESP(t)   STEP(pc[t] == ReadResponding, pc[t] = Ready)
#define WRITE_INV_V(t, l, v) STEP(pc[t] == Ready, pc[t] = WritePending; argL[t] = l; argV[t] = v)
#define WRITE_INV_L(t, l) EACH_V(WRITE_INV_V, t, l)
#define WRITE_INV(t)   EACH_L(WRITE_INV_L, t)
/* DoWrite(t, argL[t], argV[t]) */
#define DO_WRITE(t)    STEP(pc[t] == WritePending, WR(t, argL[t]) = argV[t] + 1; pc[t] = WriteResponding)
#define WRITE_RESP(t)  STEP(pc[t] == WriteResponding, pc[t] = Ready)
#define COMMIT_INV(t)  STEP(pc[t] == Ready, pc[t] = CommitPending)
#define RO_COMMIT_N(t, n) STEP(pc[t] == CommitPending && READONLY(t) && VALID(t, n), pc[t] = CommitResponding)
#define RO_COMMIT(t)   EACH_N(RO_COMMIT_N, t)
/* append(mems, override(last(mems), wrSet[t])) */
#define NEW_MEM(t, l)  MEM(nmems, l) = (WR(t, l) != 0 -> WR(t, l) - 1 : MEM(nmems - 1, l));
#define LAST_IN(t, x, l) (RD(t, l) == 0 || RD(t, l) == MEM(nmems - 1, l) + 1)
#define W_COMMIT(t)    STEP(pc[t] == CommitPending && ALL_L(LAST_IN, t, 0), \
	                        EACH_L(NEW_MEM, t) nmems++; pc[t] = CommitResponding)
#define COMMIT_RESP(t) STEP(pc[t] == CommitResponding, pc[t] = Committed)
#define ABORT(t)       STEP(pc[t] == BeginPending || pc[t] == ReadPending || pc[t] == ReadResponding || \
	                        pc[t] == WritePending || pc[t] == WriteResponding || pc[t] == CommitPending, \
	                        pc[t] = Aborted)

active proctype TMS2()
{
end:
	do
	EACH_T(BEGIN_INV)
	EACH_T(BEGIN_RESP)
	EACH_T(READ_INVS)
	EACH_T(DO_READ)
	EACH_T(READ_RESP)
	EACH_T(WRITE_INV)
	EACH_T(DO_WRITE)
	EACH_T(WRITE_RESP)
	EACH_T(COMMIT_INV)
	EACH_T(RO_COMMIT)
	EACH_T(W_COMMIT)
	EACH_T(COMMIT_RESP)
	EACH_T(ABORT)
	od
}
