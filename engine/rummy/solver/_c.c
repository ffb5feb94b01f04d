/* The column search of engine/solver/fast.py (_Search.top and _Search.best) in C.
 *
 * It is a line-by-line port: the same suit options in the same order (run_moves,
 * suit_options), the same per-suit bound (suit_bound), the same stable orderings, the same
 * failed-state memo and dominance test, and the same work budget (the same units charged at
 * the same points), so it returns exactly the answer of the Python search.
 * engine/solver/fast.py falls back to the Python search when this module is missing, and
 * tests/test_solver_native.py compares the two on many seeded positions.
 *
 * Python side: h = new(spec); top(h) -> int | None; work(h) -> units charged so far;
 * best(h, floor, stop_at, budget_left | None, pending, seeded) ->
 * ((total, path) | None, budget_left, units not yet charged, cut); path = per column a tuple
 * of 4 options, each (k, -1, gain, w, placed, (n, w, k, cont codes, new codes)) as the
 * Python search has them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NEG (-(INT64_C(1) << 60))
#define SC 12
#define MAXR 7 /* run codes per suit state */
#define LOW 4
#define NCOL 17
#define SIDBITS 14
#define SIDMASK ((UINT64_C(1) << SIDBITS) - 1)
#define MAXSID ((1 << SIDBITS) - 1)

/* ---------------------------------------------------------------- hash map uint64 -> int64 */

typedef struct {
    uint64_t *keys;
    int64_t *vals;
    uint8_t *used;
    size_t cap, n;
} Map;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

typedef struct Search Search;
static void *xmalloc(Search *S, size_t n);
static void *xrealloc(Search *S, void *p, size_t n);

static int map_get(const Map *m, uint64_t key, int64_t *out) {
    if (!m->cap) return 0;
    size_t mask = m->cap - 1, i = (size_t)mix64(key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) {
            *out = m->vals[i];
            return 1;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

static void map_put(Search *S, Map *m, uint64_t key, int64_t val);

static void map_grow(Search *S, Map *m) {
    size_t old = m->cap;
    uint64_t *ok = m->keys;
    int64_t *ov = m->vals;
    uint8_t *ou = m->used;
    m->cap = old ? old * 2 : 64;
    m->keys = xmalloc(S, m->cap * sizeof(uint64_t));
    m->vals = xmalloc(S, m->cap * sizeof(int64_t));
    m->used = xmalloc(S, m->cap);
    memset(m->used, 0, m->cap);
    m->n = 0;
    for (size_t i = 0; i < old; i++)
        if (ou[i]) map_put(S, m, ok[i], ov[i]);
    free(ok);
    free(ov);
    free(ou);
}

static void map_put(Search *S, Map *m, uint64_t key, int64_t val) {
    if ((m->n + 1) * 2 > m->cap) map_grow(S, m);
    size_t mask = m->cap - 1, i = (size_t)mix64(key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return;
        }
        i = (i + 1) & mask;
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
}

static void map_free(Map *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof(*m));
}

/* ---------------------------------------------------------------- problem data */

typedef struct {
    int mand, ho, sg, kmax, tag, nends, nalive;
    int64_t hg;
    int ends_start[16], ends_count[16];
    int alive[16];
    int64_t share[6];
} ColSuit;

typedef struct {
    int32_t nid;
    int64_t gain;
    int8_t placed, n, k, w, ncont, nnew;
    uint8_t cont[MAXR], newc[MAXR];
} Raw;

typedef struct {
    Raw *items;
    int off[6]; /* options with k set cards: items[off[k]:off[k+1]] */
} RawList;

typedef struct {
    const Raw *r;
    int64_t o7; /* gain * SC + bound */
} Opt;

typedef struct {
    Opt *items;
    int off[6];
} OptList;

/* Stable insertion into items[start..at], best (highest o7) first. */
static inline void insert_best_first(Opt *items, int start, int at, Opt o) {
    int q = at;
    while (q > start && items[q - 1].o7 < o.o7) {
        items[q] = items[q - 1];
        q--;
    }
    items[q] = o;
}

typedef struct {
    RawList *raw;
    OptList *opt;
    OptList **wopt;      /* [jokers here * 5 + jokers left after], made on first use */
    int64_t bound[5];    /* [jokers at most] */
    uint8_t bknown, upknown, raw_charged, bound_charged;
    int nups, upres;
    uint64_t *ups;  /* packed suit states (see upgrades) */
    int32_t *upsid; /* their ids, -1 while not made (checked again when states were added) */
} Entry;

typedef struct {
    Entry *e;
    int cap;
} EntryArr;

typedef struct {
    int64_t f, nscore;
    uint64_t nst;
    const Opt *o[4];
    int idx;
} Cand;

typedef struct {
    Cand *items;
    int n, cap;
} CandBuf;

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    int64_t data[]; /* 8-aligned */
} Chunk;

struct Search {
    jmp_buf oom;
    Chunk *chunks; /* the search's tables: freed all at once */
    Raw *scratch[5];
    int scratch_cap[5];
    int vmin, vmax, either, split, need_placed, tri_suit, tri_v, wild_total, wild_m;
    int64_t mw, wg;
    int64_t work;     /* units charged (see WORK in solver_columns.py) */
    int budgeted, seeded, cut;
    int64_t budget, synced;
    Map jb;
    ColSuit col[NCOL][4];
    int nk[NCOL];
    int (*kvecs[NCOL])[5]; /* k0..k3, bonus */
    int end_nends[4], end_start[4][16], end_count[4][16];
    /* suit states: packed codes (byte i: code i, 0 = none; byte 7: aces in low runs) */
    uint64_t *states;
    int nstates, capstates, max_states;
    Map ids;
    EntryArr ent[NCOL][4];
    Map failed[NCOL];
    CandBuf cands[NCOL];
    const Opt *path[NCOL][4];
    const Opt *best_path[NCOL][4];
    int64_t inc;
    int have_inc, stop_set;
    int64_t stop_at;
};

static void *xmalloc(Search *S, size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) longjmp(S->oom, 1);
    return p;
}

static void *xrealloc(Search *S, void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) longjmp(S->oom, 1);
    return q;
}

/* n bytes that live as long as the search */
static void *arena(Search *S, size_t n) {
    n = (n + 7) & ~(size_t)7;
    Chunk *c = S->chunks;
    if (!c || c->used + n > c->cap) {
        size_t cap = n > 65536 ? n : 65536;
        c = xmalloc(S, sizeof(Chunk) + cap);
        c->next = S->chunks;
        c->used = 0;
        c->cap = cap;
        S->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

/* ---------------------------------------------------------------- suit states */

static inline int unpack(uint64_t key, uint8_t *codes, int *ace_low) {
    int n = 0;
    for (int i = 0; i < MAXR; i++) {
        uint8_t c = (uint8_t)(key >> (8 * i));
        if (!c) break;
        codes[n++] = c;
    }
    *ace_low = (int)(key >> 56);
    return n;
}

static void sort_codes(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static inline uint64_t pack(const uint8_t *sorted_codes, int n, int ace_low) {
    uint64_t key = (uint64_t)(uint8_t)ace_low << 56;
    for (int i = 0; i < n; i++) key |= (uint64_t)sorted_codes[i] << (8 * i);
    return key;
}

static int intern(Search *S, uint64_t key) {
    int64_t got;
    if (map_get(&S->ids, key, &got)) return (int)got;
    if (S->nstates >= S->max_states) longjmp(S->oom, 2);
    if (S->nstates == S->capstates) {
        S->capstates = S->capstates ? S->capstates * 2 : 256;
        S->states = xrealloc(S, S->states, S->capstates * sizeof(uint64_t));
    }
    S->states[S->nstates] = key;
    map_put(S, &S->ids, key, S->nstates);
    return S->nstates++;
}

static Entry *entry(Search *S, int v, int s, int sid) {
    EntryArr *a = &S->ent[v][s];
    if (sid >= a->cap) {
        int cap = a->cap + a->cap / 2;
        if (cap <= sid) cap = sid + 1;
        if (cap < 64) cap = 64;
        a->e = xrealloc(S, a->e, cap * sizeof(Entry));
        memset(a->e + a->cap, 0, (cap - a->cap) * sizeof(Entry));
        a->cap = cap;
    }
    return &a->e[sid];
}

static inline int in_list(const int *xs, int n, int x) {
    for (int i = 0; i < n; i++)
        if (xs[i] == x) return 1;
    return 0;
}

static int64_t end_bonus(const uint8_t *ended, int n, const int *st, const int *cnt, int nends) {
    if (!nends) return 0;
    int64_t total = 0;
    for (int e = 0; e < nends; e++) {
        int have = 0;
        for (int i = 0; i < n; i++)
            if ((ended[i] >> 3) && (ended[i] >> 3) == st[e]) have++;
        if (have) total += have < cnt[e] ? have : cnt[e];
    }
    return total;
}

/* ---------------------------------------------------------------- run moves (see run_moves) */

typedef struct {
    uint8_t runs[MAXR];
    int nruns;
    int64_t bonus;
    uint8_t cont[MAXR];
    int ncont, nnew;
    uint8_t new_code;
} Move;

static int run_moves(const uint8_t *runs, int nruns, int j, int v, int vmax, int either,
                     const ColSuit *cs, Move *out, int outcap) {
    uint8_t fc[MAXR], fn[MAXR], opt[MAXR];
    int nf = 0, no = 0;
    for (int i = 0; i < nruns; i++) {
        uint8_t c = runs[i];
        if ((c & 3) < 3) {
            uint8_t nxt = c + 1;
            if ((nxt >> 3) && !in_list(cs->alive, cs->nalive, nxt >> 3)) nxt &= 7;
            fc[nf] = c;
            fn[nf++] = nxt;
        } else if (!(either && (c & LOW) && v == 14)) {
            opt[no++] = c;
        }
    }
    if (nf > j || (nf && v > vmax)) return 0;
    uint8_t new_code = 1 | (cs->tag ? v << 3 : 0) | (either && v == 1 ? LOW : 0);
    int can_start = v + 2 <= vmax;
    sort_codes(opt, no);
    int nout = 0;
    for (int n_opt = 0; n_opt <= no; n_opt++) {
        /* index combinations of size n_opt, in lexicographic order; a value tuple seen
         * before is skipped (as _sub_multisets). */
        int idx[MAXR];
        for (int i = 0; i < n_opt; i++) idx[i] = i;
        uint8_t seen[128][MAXR];
        int nseen = 0;
        for (;;) {
            uint8_t cont[MAXR];
            for (int i = 0; i < n_opt; i++) cont[i] = opt[idx[i]];
            int dup = 0;
            for (int q = 0; q < nseen && !dup; q++)
                if (!memcmp(seen[q], cont, n_opt)) dup = 1;
            if (!dup) {
                if (nseen < 128) memcpy(seen[nseen++], cont, n_opt);
                int n_new = j - nf - n_opt;
                if (!(n_new < 0 || (n_new && !can_start))) {
                    uint8_t ended[MAXR];
                    int ne = 0;
                    uint8_t used[MAXR] = {0};
                    for (int i = 0; i < n_opt; i++) used[idx[i]] = 1;
                    for (int i = 0; i < no; i++)
                        if (!used[i]) ended[ne++] = opt[i];
                    int64_t bonus = (ne && cs->nends)
                                        ? end_bonus(ended, ne, cs->ends_start, cs->ends_count,
                                                    cs->nends)
                                        : 0;
                    Move m;
                    m.bonus = bonus;
                    m.new_code = new_code;
                    m.nnew = n_new;
                    m.ncont = 0;
                    for (int i = 0; i < nf; i++) m.cont[m.ncont++] = fc[i];
                    for (int i = 0; i < n_opt; i++) m.cont[m.ncont++] = cont[i];
                    sort_codes(m.cont, m.ncont);
                    m.nruns = 0;
                    for (int i = 0; i < nf; i++) m.runs[m.nruns++] = fn[i];
                    for (int i = 0; i < n_opt; i++) {
                        uint8_t c = cont[i];
                        if ((c >> 3) && !in_list(cs->alive, cs->nalive, c >> 3)) c &= 7;
                        m.runs[m.nruns++] = c;
                    }
                    for (int i = 0; i < n_new; i++) m.runs[m.nruns++] = new_code;
                    sort_codes(m.runs, m.nruns);
                    int again = 0;
                    for (int q = 0; q < nout && !again; q++)
                        if (out[q].nruns == m.nruns && out[q].bonus == m.bonus &&
                            !memcmp(out[q].runs, m.runs, m.nruns))
                            again = 1;
                    if (!again && nout < outcap) out[nout++] = m;
                }
            }
            /* next combination */
            int i = n_opt - 1;
            while (i >= 0 && idx[i] == no - n_opt + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int q = i + 1; q < n_opt; q++) idx[q] = idx[q - 1] + 1;
        }
    }
    return nout;
}

/* ---------------------------------------------------------------- suit options (suit_options) */

#define MOVECAP 512

static RawList *raw(Search *S, int v, int s, int sid) {
    Entry *e = entry(S, v, s, sid);
    if (e->raw) return e->raw;
    const ColSuit *cs = &S->col[v][s];
    uint8_t runs[MAXR];
    int ace_low;
    int nruns = unpack(S->states[sid], runs, &ace_low);
    int ace_low_col = S->split && v == 1, ace_high_col = S->split && v == 14;
    int total_n = cs->mand + cs->ho + cs->sg, lo, hi, base_used;
    if (ace_low_col) {
        lo = 0, hi = total_n, base_used = 0;
    } else if (ace_high_col) {
        lo = cs->mand - ace_low > 0 ? cs->mand - ace_low : 0;
        hi = total_n - ace_low, base_used = ace_low;
    } else {
        lo = cs->mand, hi = total_n, base_used = 0;
    }
    Raw **byk = S->scratch; /* per set-card count, reused between calls */
    int nbyk[5] = {0}, *capk = S->scratch_cap;
    Move moves[MOVECAP];
    for (int n = lo; n <= hi; n++) {
        int64_t gain;
        int placed;
        if (ace_low_col) {
            gain = 0, placed = 0;
        } else {
            int extra = base_used + n - cs->mand;
            int hand = extra > 0 ? extra : 0;
            if (hand > cs->ho) hand = cs->ho;
            int singles = extra - hand > 0 ? extra - hand : 0;
            gain = hand * cs->hg - singles * S->mw;
            placed = hand > 0;
        }
        int keep_low = ace_low_col ? n : ace_high_col ? 0 : ace_low;
        for (int w = 0; w <= S->wild_total; w++) {
        int u = n + w;
        int max_k = ace_low_col ? 0 : (u < cs->kmax ? u : cs->kmax);
        for (int k = 0; k <= max_k; k++) {
            int nm = run_moves(runs, nruns, u - k, v, S->vmax, S->either, cs, moves, MOVECAP);
            for (int i = 0; i < nm; i++) {
                Move *m = &moves[i];
                if (nbyk[k] == capk[k]) {
                    capk[k] = capk[k] ? capk[k] * 2 : 8;
                    byk[k] = xrealloc(S, byk[k], capk[k] * sizeof(Raw));
                }
                Raw *r = &byk[k][nbyk[k]++];
                r->nid = intern(S, pack(m->runs, m->nruns, keep_low));
                r->gain = gain + m->bonus * S->mw + w * S->wg;
                r->placed = (int8_t)placed;
                r->w = (int8_t)w;
                r->n = (int8_t)n;
                r->k = (int8_t)k;
                r->ncont = (int8_t)m->ncont;
                memcpy(r->cont, m->cont, m->ncont);
                r->nnew = (int8_t)m->nnew;
                memset(r->newc, m->new_code, m->nnew);
            }
        }
        }
    }
    int total = 0;
    for (int k = 0; k < 5; k++) total += nbyk[k];
    RawList *rl = arena(S, sizeof(RawList));
    rl->items = arena(S, total * sizeof(Raw));
    int at = 0;
    for (int k = 0; k < 5; k++) {
        rl->off[k] = at;
        if (nbyk[k]) memcpy(rl->items + at, byk[k], nbyk[k] * sizeof(Raw));
        at += nbyk[k];
    }
    rl->off[5] = at;
    e = entry(S, v, s, sid); /* the array may have moved (intern does not, but be safe) */
    e->raw = rl;
    return rl;
}

/* ---------------------------------------------------------------- per-suit bound (suit_bound) */

static int64_t bound(Search *S, int v, int s, int sid, int wilds) {
    Entry *e = entry(S, v, s, sid);
    if (e->bknown >> wilds & 1) return e->bound[wilds];
    int64_t best = NEG;
    if (v == S->vmax) {
        uint8_t runs[MAXR];
        int ace_low;
        int n = unpack(S->states[sid], runs, &ace_low);
        int endable = 1;
        for (int i = 0; i < n; i++)
            if ((runs[i] & 3) != 3) endable = 0;
        if (endable)
            best = end_bonus(runs, n, S->end_start[s], S->end_count[s], S->end_nends[s]) * S->mw *
                   SC;
    } else {
        RawList *rl = raw(S, v + 1, s, sid);
        const int64_t *share = S->col[v + 1][s].share;
        for (int k = 0; k < 5; k++) {
            for (int i = rl->off[k]; i < rl->off[k + 1]; i++) {
                const Raw *o = &rl->items[i];
                if (o->w > wilds) continue;
                int64_t h = bound(S, v + 1, s, o->nid, wilds - o->w);
                if (h == NEG) continue;
                int64_t val = o->gain * SC + share[k] + h;
                if (val > best) best = val;
            }
        }
    }
    e = entry(S, v, s, sid);
    e->bound[wilds] = best;
    e->bknown |= 1 << wilds;
    return best;
}

/* _Search.raw and _Search.bound: the tables a search asks for, charged once per search */
static RawList *api_raw(Search *S, int v, int s, int sid) {
    Entry *e = entry(S, v, s, sid);
    if (!e->raw_charged) {
        e->raw_charged = 1;
        S->work++;
    }
    return raw(S, v, s, sid);
}

static int64_t api_bound(Search *S, int v, int s, int sid, int wilds) {
    if (wilds >= S->wild_total) {
        Entry *e = entry(S, v, s, sid);
        if (!e->bound_charged) {
            e->bound_charged = 1;
            S->work++;
        }
        wilds = S->wild_total;
    }
    return bound(S, v, s, sid, wilds);
}

/* _Search.joint_bound: the suits' bounds after column v, sharing `wilds` jokers */
static int64_t joint_bound(Search *S, int v, uint64_t st, int wilds) {
    uint64_t key = (st & ((UINT64_C(1) << (4 * SIDBITS)) - 1)) | (uint64_t)wilds << 56 |
                   (uint64_t)v << 59;
    int64_t got;
    if (map_get(&S->jb, key, &got)) return got;
    int64_t best[5] = {0, NEG, NEG, NEG, NEG};
    for (int s = 0; s < 4; s++) {
        int sid = (int)(st >> (s * SIDBITS) & SIDMASK);
        int64_t row[5], nb[5];
        for (int w = 0; w <= wilds; w++) row[w] = api_bound(S, v, s, sid, w);
        for (int w = 0; w <= wilds; w++) {
            int64_t m = NEG;
            int any = 0;
            for (int a = 0; a <= w; a++) {
                if (best[a] > NEG && row[w - a] > NEG) {
                    int64_t x = best[a] + row[w - a];
                    if (!any || x > m) m = x;
                    any = 1;
                }
            }
            nb[w] = any ? m : NEG;
        }
        memcpy(best, nb, sizeof(best));
    }
    int64_t top = best[0];
    for (int w = 1; w <= wilds; w++)
        if (best[w] > top) top = best[w];
    map_put(S, &S->jb, key, top);
    return top;
}

/* ---------------------------------------------------------------- options (sorted, bounded) */

/* The raw options of column (v, s) from state sid that lay `w` jokers here (w < 0: any
   number), bounded with `left` jokers after, best first within each of the five slices. */
static OptList *bounded_options(Search *S, int v, int s, int sid, int w, int left) {
    RawList *rl = api_raw(S, v, s, sid);
    int total = rl->off[5];
    OptList *ol = arena(S, sizeof(OptList));
    ol->items = arena(S, total * sizeof(Opt));
    int at = 0;
    for (int k = 0; k < 5; k++) {
        ol->off[k] = at;
        int start = at;
        for (int i = rl->off[k]; i < rl->off[k + 1]; i++) {
            const Raw *r = &rl->items[i];
            if (w >= 0 && r->w != w) continue;
            int64_t h = api_bound(S, v, s, r->nid, left);
            if (h == NEG) continue;
            insert_best_first(ol->items, start, at++, (Opt){r, r->gain * SC + h});
        }
    }
    ol->off[5] = at;
    return ol;
}

static OptList *options(Search *S, int v, int s, int sid) {
    Entry *e = entry(S, v, s, sid);
    if (e->opt) return e->opt;
    OptList *ol = bounded_options(S, v, s, sid, -1, S->wild_total);
    e = entry(S, v, s, sid);  /* api_raw may have grown the entry array */
    e->opt = ol;
    return ol;
}

/* _Search.wild_options: those laying `w` jokers here, bounded with `left` jokers after */
static OptList *wild_options(Search *S, int v, int s, int sid, int w, int left) {
    Entry *e = entry(S, v, s, sid);
    if (!e->wopt) {
        e->wopt = arena(S, 25 * sizeof(OptList *));
        memset(e->wopt, 0, 25 * sizeof(OptList *));
    }
    if (e->wopt[w * 5 + left]) return e->wopt[w * 5 + left];
    OptList *ol = bounded_options(S, v, s, sid, w, left);
    e = entry(S, v, s, sid);
    e->wopt[w * 5 + left] = ol;
    return ol;
}

/* ---------------------------------------------------------------- successors */

static inline void cand_push(Search *S, CandBuf *b, int64_t f, uint64_t nst, int64_t nscore,
                             const Opt *o0, const Opt *o1, const Opt *o2, const Opt *o3) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->items = xrealloc(S, b->items, b->cap * sizeof(Cand));
    }
    Cand *c = &b->items[b->n];
    c->f = f;
    c->nst = nst;
    c->nscore = nscore;
    c->o[0] = o0, c->o[1] = o1, c->o[2] = o2, c->o[3] = o3;
    c->idx = b->n++;
}

static int cand_cmp(const void *a, const void *b) {
    const Cand *x = a, *y = b;
    if (x->f != y->f) return x->f > y->f ? -1 : 1;
    return x->idx - y->idx;
}

static int covers(Search *S, const Opt *o) {
    uint8_t runs[MAXR];
    int ace_low;
    int n = unpack(S->states[o->r->nid], runs, &ace_low);
    for (int i = 0; i < n; i++)
        if ((runs[i] & 3) == 3) return 1;
    return 0;
}

#define EXTRA_SHIFT 56 /* wused | flag << 3 | tri << 4 */

/* Each suit's options with kv[s] set cards: [a[s], e[s]); 0 when some suit has none. */
static inline int kv_slices(OptList *const l[4], const int *kv, const Opt *a[4], const Opt *e[4]) {
    int full = 1;
    for (int s = 0; s < 4; s++) {
        a[s] = l[s]->items + l[s]->off[kv[s]];
        e[s] = l[s]->items + l[s]->off[kv[s] + 1];
        if (a[s] == e[s]) full = 0;
    }
    return full;
}

static void successors(Search *S, int v, uint64_t st, int64_t score, int64_t thr, CandBuf *out) {
    out->n = 0;
    OptList *l[4];
    for (int s = 0; s < 4; s++) l[s] = options(S, v, s, (int)(st >> (s * SIDBITS) & SIDMASK));
    int extra = (int)(st >> EXTRA_SHIFT);
    int tri_col = S->tri_suit >= 0 && v == S->tri_v + 2;
    int slow = tri_col || S->need_placed || extra;
    int64_t base = score * SC;
    for (int q = 0; q < S->nk[v]; q++) {
        const int *kv = S->kvecs[v][q];
        const Opt *a[4], *e[4];
        if (!kv_slices(l, kv, a, e)) continue;
        int64_t b = base + (int64_t)kv[4] * SC;
        int64_t m1 = a[1]->o7, m2 = a[2]->o7, m3 = a[3]->o7, m23 = m2 + m3;
        if (b + a[0]->o7 + m1 + m23 < thr) continue;
        for (const Opt *o0 = a[0]; o0 < e[0]; o0++) {
            int64_t b0 = b + o0->o7;
            if (b0 + m1 + m23 < thr) break;
            for (const Opt *o1 = a[1]; o1 < e[1]; o1++) {
                int64_t b1 = b0 + o1->o7;
                if (b1 + m23 < thr) break;
                for (const Opt *o2 = a[2]; o2 < e[2]; o2++) {
                    int64_t b2 = b1 + o2->o7;
                    if (b2 + m3 < thr) break;
                    for (const Opt *o3 = a[3]; o3 < e[3]; o3++) {
                        int64_t f = b2 + o3->o7;
                        if (f < thr) break;
                        uint64_t nst = (uint64_t)o0->r->nid | (uint64_t)o1->r->nid << SIDBITS |
                                       (uint64_t)o2->r->nid << (2 * SIDBITS) |
                                       (uint64_t)o3->r->nid << (3 * SIDBITS);
                        if (slow) {
                            int flag = (extra >> 3 & 1) | o0->r->placed | o1->r->placed |
                                       o2->r->placed | o3->r->placed;
                            int tri = extra >> 4 & 1;
                            if (tri_col && !tri) {
                                const Opt *os[4] = {o0, o1, o2, o3};
                                tri = covers(S, os[S->tri_suit]);
                            }
                            nst |= (uint64_t)(flag << 3 | tri << 4) << EXTRA_SHIFT;
                        }
                        int64_t nscore = score + kv[4] + o0->r->gain + o1->r->gain +
                                         o2->r->gain + o3->r->gain;
                        cand_push(S, out, f, nst, nscore, o0, o1, o2, o3);
                    }
                }
            }
        }
    }
    if (out->n > 1) qsort(out->items, out->n, sizeof(Cand), cand_cmp);
}

/* _Search.wild_successors: one pass per split of this column's jokers among the suits */
static void wild_successors(Search *S, int v, uint64_t st, int64_t score, int64_t thr,
                            CandBuf *out) {
    out->n = 0;
    int extra = (int)(st >> EXTRA_SHIFT);
    int wused = extra & 7, flag0 = extra >> 3 & 1, tri0 = extra >> 4 & 1;
    int tri_col = S->tri_suit >= 0 && v == S->tri_v + 2;
    int sids[4];
    for (int s = 0; s < 4; s++) sids[s] = (int)(st >> (s * SIDBITS) & SIDMASK);
    int64_t base = score * SC;
    int spare = S->wild_total - wused;
    int wv[4];
    for (wv[0] = 0; wv[0] <= spare; wv[0]++)
    for (wv[1] = 0; wv[1] <= spare; wv[1]++)
    for (wv[2] = 0; wv[2] <= spare; wv[2]++)
    for (wv[3] = 0; wv[3] <= spare; wv[3]++) {
        int sum = wv[0] + wv[1] + wv[2] + wv[3];
        if (sum > spare) continue;
        int left = spare - sum;
        OptList *l[4];
        for (int s = 0; s < 4; s++) l[s] = wild_options(S, v, s, sids[s], wv[s], left);
        int w = wused + sum;
        for (int q = 0; q < S->nk[v]; q++) {
            const int *kv = S->kvecs[v][q];
            const Opt *a[4], *e[4];
            if (!kv_slices(l, kv, a, e)) continue;
            int64_t b = base + (int64_t)kv[4] * SC;
            int64_t m1 = a[1]->o7, m2 = a[2]->o7, m3 = a[3]->o7, m23 = m2 + m3;
            int stop = 0;
            for (const Opt *o0 = a[0]; o0 < e[0] && !stop; o0++) {
                int64_t b0 = b + o0->o7;
                if (b0 + m1 + m23 < thr) {
                    stop = 1;
                    break;
                }
                for (const Opt *o1 = a[1]; o1 < e[1]; o1++) {
                    int64_t b1 = b0 + o1->o7;
                    if (b1 + m23 < thr) break;
                    for (const Opt *o2 = a[2]; o2 < e[2]; o2++) {
                        int64_t b2 = b1 + o2->o7;
                        if (b2 + m3 < thr) break;
                        for (const Opt *o3 = a[3]; o3 < e[3]; o3++) {
                            if (b2 + o3->o7 < thr) break;
                            int64_t nscore = score + kv[4] + o0->r->gain + o1->r->gain +
                                             o2->r->gain + o3->r->gain;
                            uint64_t nst = (uint64_t)o0->r->nid |
                                           (uint64_t)o1->r->nid << SIDBITS |
                                           (uint64_t)o2->r->nid << (2 * SIDBITS) |
                                           (uint64_t)o3->r->nid << (3 * SIDBITS);
                            int64_t f = nscore * SC + joint_bound(S, v, nst, left);
                            if (f < thr) continue;
                            int flag = flag0 | o0->r->placed | o1->r->placed | o2->r->placed |
                                       o3->r->placed;
                            int tri = tri0;
                            if (tri_col && !tri) {
                                const Opt *os[4] = {o0, o1, o2, o3};
                                tri = covers(S, os[S->tri_suit]);
                            }
                            nst |= (uint64_t)(w | flag << 3 | tri << 4) << EXTRA_SHIFT;
                            cand_push(S, out, f, nst, nscore, o0, o1, o2, o3);
                        }
                    }
                }
            }
        }
    }
    if (out->n > 1) qsort(out->items, out->n, sizeof(Cand), cand_cmp);
}

/* ---------------------------------------------------------------- dominance (upgrades) */

static void upgrades(Search *S, Entry *e, int v, int s, int sid) {
    uint8_t runs[MAXR];
    int ace_low;
    int n = unpack(S->states[sid], runs, &ace_low);
    const ColSuit *cs = &S->col[v][s];
    e->upknown = 1;
    e->nups = 0;
    e->ups = NULL;
    if (n > 3) return;
    uint8_t choices[3][160];
    int nch[3] = {0};
    for (int i = 0; i < n; i++) {
        uint8_t c = runs[i];
        uint8_t bases[40];
        int nb = 0;
        uint8_t b0 = c & ~3, b1 = (c & ~3) & ~LOW;
        bases[nb++] = b0;
        if (b1 != b0) bases[nb++] = b1;
        if (!(c >> 3)) {
            int nb0 = nb;
            for (int x = 0; x < nb0; x++)
                for (int y = 0; y < cs->nalive; y++) {
                    uint8_t t = bases[x] | cs->alive[y] << 3;
                    int dup = 0;
                    for (int z = 0; z < nb; z++)
                        if (bases[z] == t) dup = 1;
                    if (!dup) bases[nb++] = t;
                }
        }
        for (int x = 0; x < nb; x++)
            for (int k = c & 3; k < 4; k++) choices[i][nch[i]++] = bases[x] | k;
    }
    /* every combination, sorted; and with one more run that may end at once */
    int cap = 1;
    for (int i = 0; i < n; i++) cap *= nch[i];
    cap *= 2;
    uint64_t *ups = arena(S, cap * sizeof(uint64_t));
    int nu = 0;
    uint64_t orig = pack(runs, n, ace_low);
    int idx[3] = {0, 0, 0};
    for (;;) {
        uint8_t combo[MAXR];
        for (int i = 0; i < n; i++) combo[i] = choices[i][idx[i]];
        sort_codes(combo, n);
        uint64_t key = pack(combo, n, ace_low);
        if (key != orig) ups[nu++] = key;
        if (n < 3) {
            combo[n] = 3;
            sort_codes(combo, n + 1);
            key = pack(combo, n + 1, ace_low);
            if (key != orig) ups[nu++] = key;
        }
        int i = n - 1;
        while (i >= 0 && idx[i] == nch[i] - 1) {
            idx[i] = 0;
            i--;
        }
        if (i < 0) break;
        idx[i]++;
    }
    e->ups = ups;
    e->nups = nu;
    e->upsid = arena(S, (nu ? nu : 1) * sizeof(int32_t));
    for (int i = 0; i < nu; i++) e->upsid[i] = -1;
    e->upres = -1;
}

static int dominated(Search *S, const Map *memo, int v, uint64_t st, int64_t score) {
    for (int s = 0; s < 4; s++) {
        int shift = s * SIDBITS;
        int sid = (int)(st >> shift & SIDMASK);
        Entry *e = entry(S, v, s, sid);
        if (!e->upknown) upgrades(S, e, v, s, sid);
        if (!e->nups) continue;
        if (e->upres != S->nstates) {
            for (int i = 0; i < e->nups; i++) {
                int64_t up;
                if (e->upsid[i] < 0 && map_get(&S->ids, e->ups[i], &up)) e->upsid[i] = (int32_t)up;
            }
            e->upres = S->nstates;
        }
        uint64_t rest = st & ~(SIDMASK << shift);
        for (int i = 0; i < e->nups; i++) {
            if (e->upsid[i] < 0) continue; /* never made: never failed */
            int64_t seen;
            if (map_get(memo, rest | (uint64_t)e->upsid[i] << shift, &seen) && seen >= score)
                return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the search (best) */

static int final_total(Search *S, uint64_t st, int64_t score, int64_t *total) {
    int extra = (int)(st >> EXTRA_SHIFT);
    int wused = extra & 7, flag = extra >> 3 & 1, tri = extra >> 4 & 1;
    if (wused < S->wild_m || (S->tri_suit >= 0 && !tri)) return 0;
    if (S->need_placed && !flag && wused == S->wild_m) return 0;
    for (int s = 0; s < 4; s++) {
        uint8_t runs[MAXR];
        int ace_low;
        int n = unpack(S->states[st >> (s * SIDBITS) & SIDMASK], runs, &ace_low);
        if (n)
            score += end_bonus(runs, n, S->end_start[s], S->end_count[s], S->end_nends[s]) *
                     S->mw;
    }
    *total = score - S->wild_m * S->wg;
    return 1;
}

static int go(Search *S, int v, uint64_t st, int64_t score) {
    if (S->budgeted) { /* a state, and the tables asked for since the last one */
        S->budget -= 1 + S->work - S->synced;
        S->synced = S->work;
        if (S->budget < 0 && (S->seeded || S->have_inc)) {
            S->cut = 1;
            return 1;
        }
    }
    int64_t wild_sc = -S->wild_m * S->wg * SC;
    if (v > S->vmax) {
        int64_t total;
        if (final_total(S, st, score, &total) && total > S->inc) {
            S->inc = total;
            S->have_inc = 1;
            memcpy(S->best_path, S->path, sizeof(S->path));
            return S->stop_set && total >= S->stop_at;
        }
        return 0;
    }
    Map *memo = &S->failed[v];
    int64_t seen;
    if (map_get(memo, st, &seen) && seen >= score) return 0;
    if (memo->n && dominated(S, memo, v, st, score)) return 0;
    CandBuf *buf = &S->cands[v];
    if (S->wild_total)
        wild_successors(S, v, st, score, (S->inc + 1) * SC - wild_sc, buf);
    else
        successors(S, v, st, score, (S->inc + 1) * SC - wild_sc, buf);
    if (S->budgeted && S->wild_total) S->budget -= buf->n / 4; /* a joker column weighs more */
    for (int i = 0; i < buf->n; i++) {
        Cand *c = &buf->items[i];
        if (c->f < (S->inc + 1) * SC - wild_sc) break;
        for (int s = 0; s < 4; s++) S->path[v][s] = c->o[s];
        if (go(S, v + 1, c->nst, c->nscore)) return 1;
    }
    map_put(S, memo, st, score);
    return 0;
}

/* ---------------------------------------------------------------- Python glue */

static void search_free(Search *S) {
    while (S->chunks) {
        Chunk *next = S->chunks->next;
        free(S->chunks);
        S->chunks = next;
    }
    for (int k = 0; k < 5; k++) free(S->scratch[k]);
    free(S->states);
    map_free(&S->ids);
    map_free(&S->jb);
    for (int v = 0; v < NCOL; v++) {
        for (int s = 0; s < 4; s++) {
            EntryArr *a = &S->ent[v][s];
            free(a->e);
        }
        map_free(&S->failed[v]);
        free(S->cands[v].items);
        free(S->kvecs[v]);
    }
    free(S);
}

static void capsule_free(PyObject *cap) {
    Search *S = PyCapsule_GetPointer(cap, "solver_c.Search");
    if (S) search_free(S);
}

static int get_int(PyObject *seq, Py_ssize_t i, long long *out) {
    PyObject *x = PySequence_GetItem(seq, i);
    if (!x) return -1;
    *out = PyLong_AsLongLong(x);
    Py_DECREF(x);
    if (*out == -1 && PyErr_Occurred()) return -1;
    return 0;
}

static int get_ints(PyObject *seq, int *a, int cap, int *n) {
    PyObject *fast = PySequence_Fast(seq, "ints expected");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > cap) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many ints");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long long x;
        if (get_int(fast, i, &x)) {
            Py_DECREF(fast);
            return -1;
        }
        a[i] = (int)x;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* spec = (vmin, vmax, either, split, mw, need_placed, triple or None, cols, kvecs,
 *         wild_total, wild_m, wg[, max_states]); cols: see below;
 * kvecs[v] = ((k0, k1, k2, k3, bonus), ...). Past max_states suit states (at most 16383) the
 * search raises OverflowError and the caller goes on in Python. */
static PyObject *py_new(PyObject *self, PyObject *args) {
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "O", &spec)) return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    long long x;
    PyObject *triple = NULL, *cols = NULL, *kvecs = NULL;
    if (get_int(spec, 0, &x)) goto fail;
    S->vmin = (int)x;
    if (get_int(spec, 1, &x)) goto fail;
    S->vmax = (int)x;
    if (get_int(spec, 2, &x)) goto fail;
    S->either = (int)x;
    if (get_int(spec, 3, &x)) goto fail;
    S->split = (int)x;
    if (get_int(spec, 4, &x)) goto fail;
    S->mw = x;
    if (get_int(spec, 5, &x)) goto fail;
    S->need_placed = (int)x;
    if (S->vmin < 1 || S->vmax > 14 || S->vmin > S->vmax) {
        PyErr_SetString(PyExc_ValueError, "bad columns");
        goto fail;
    }
    triple = PySequence_GetItem(spec, 6);
    if (!triple) goto fail;
    S->tri_suit = -1;
    if (triple != Py_None) {
        if (get_int(triple, 0, &x)) goto fail;
        S->tri_suit = (int)x;
        if (get_int(triple, 1, &x)) goto fail;
        S->tri_v = (int)x;
    }
    cols = PySequence_GetItem(spec, 7);
    kvecs = PySequence_GetItem(spec, 8);
    if (!cols || !kvecs) goto fail;
    {
        /* cols = (mand, ho, sg, hg: per face; olds: per suit (start, end, count);
         *         kmax: per column and suit; share: per column and suit, by set cards) */
        long long face[4][52];
        for (int i = 0; i < 4; i++) {
            PyObject *lst = PySequence_GetItem(cols, i);
            if (!lst) goto fail;
            for (int f = 0; f < 52; f++)
                if (get_int(lst, f, &face[i][f])) {
                    Py_DECREF(lst);
                    goto fail;
                }
            Py_DECREF(lst);
        }
        int ost[4][16], oen[4][16], ocnt[4][16], nold[4];
        PyObject *olds = PySequence_GetItem(cols, 4);
        if (!olds) goto fail;
        for (int s = 0; s < 4; s++) {
            PyObject *os = PySequence_GetItem(olds, s);
            PyObject *fast = os ? PySequence_Fast(os, "olds") : NULL;
            Py_XDECREF(os);
            if (!fast || PySequence_Fast_GET_SIZE(fast) > 16) {
                Py_XDECREF(fast);
                Py_DECREF(olds);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many old runs");
                goto fail;
            }
            nold[s] = (int)PySequence_Fast_GET_SIZE(fast);
            for (int i = 0; i < nold[s]; i++) {
                PyObject *t = PySequence_Fast_GET_ITEM(fast, i);
                long long a, b, c;
                if (get_int(t, 0, &a) || get_int(t, 1, &b) || get_int(t, 2, &c)) {
                    Py_DECREF(fast);
                    Py_DECREF(olds);
                    goto fail;
                }
                ost[s][i] = (int)a, oen[s][i] = (int)b, ocnt[s][i] = (int)c;
            }
            Py_DECREF(fast);
        }
        Py_DECREF(olds);
        PyObject *kmax = PySequence_GetItem(cols, 5), *share = PySequence_GetItem(cols, 6);
        if (!kmax || !share) {
            Py_XDECREF(kmax);
            Py_XDECREF(share);
            goto fail;
        }
        int bad = 0;
        for (int v = S->vmin; v <= S->vmax && !bad; v++) {
            PyObject *kv = PySequence_GetItem(kmax, v), *sv = PySequence_GetItem(share, v);
            bad = !kv || !sv;
            for (int s = 0; s < 4 && !bad; s++) {
                ColSuit *cs = &S->col[v][s];
                int f = ((v == 14 ? 1 : v) - 1) * 4 + s;
                cs->mand = (int)face[0][f], cs->ho = (int)face[1][f], cs->sg = (int)face[2][f];
                cs->hg = face[3][f];
                long long km;
                bad = get_int(kv, s, &km);
                cs->kmax = (int)km;
                PyObject *sh = bad ? NULL : PySequence_GetItem(sv, s);
                int nshare = 0, shv[6] = {0};
                if (!sh || get_ints(sh, shv, 6, &nshare)) bad = 1;
                Py_XDECREF(sh);
                for (int i = 0; i < 6; i++) cs->share[i] = i < nshare ? shv[i] : 0;
                /* the old runs of this suit: ending before v, starting at v, reaching v */
                cs->nends = cs->nalive = cs->tag = 0;
                for (int i = 0; i < nold[s]; i++) {
                    if (oen[s][i] == v - 1) {
                        cs->ends_start[cs->nends] = ost[s][i];
                        cs->ends_count[cs->nends++] = ocnt[s][i];
                    }
                    if (ost[s][i] == v) cs->tag = 1;
                    if (ost[s][i] < v && v <= oen[s][i] &&
                        !in_list(cs->alive, cs->nalive, ost[s][i]))
                        cs->alive[cs->nalive++] = ost[s][i];
                }
                if (!bad && (cs->mand + cs->ho + cs->sg > MAXR || cs->kmax > 4 || cs->kmax < 0)) {
                    PyErr_SetString(PyExc_ValueError, "too many cards of one face");
                    bad = 1;
                }
            }
            Py_XDECREF(kv);
            Py_XDECREF(sv);
        }
        Py_DECREF(kmax);
        Py_DECREF(share);
        if (bad) goto fail;
        for (int s = 0; s < 4; s++) {
            S->end_nends[s] = 0;
            for (int i = 0; i < nold[s]; i++)
                if (oen[s][i] == S->vmax) {
                    S->end_start[s][S->end_nends[s]] = ost[s][i];
                    S->end_count[s][S->end_nends[s]++] = ocnt[s][i];
                }
        }
    }
    for (int v = S->vmin; v <= S->vmax; v++) {
        PyObject *kv = PySequence_GetItem(kvecs, v);
        if (!kv) goto fail;
        PyObject *fast = PySequence_Fast(kv, "kvecs");
        Py_DECREF(kv);
        if (!fast) goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        S->kvecs[v] = malloc((n ? n : 1) * sizeof(int[5]));
        if (!S->kvecs[v]) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            goto fail;
        }
        S->nk[v] = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
            for (int j = 0; j < 5; j++) {
                if (get_int(item, j, &x)) {
                    Py_DECREF(fast);
                    goto fail;
                }
                S->kvecs[v][i][j] = (int)x;
            }
            for (int j = 0; j < 4; j++)
                if (S->kvecs[v][i][j] < 0 || S->kvecs[v][i][j] > 4) {
                    Py_DECREF(fast);
                    PyErr_SetString(PyExc_ValueError, "bad set split");
                    goto fail;
                }
        }
        Py_DECREF(fast);
    }
    if (get_int(spec, 9, &x)) goto fail;
    S->wild_total = (int)x;
    if (get_int(spec, 10, &x)) goto fail;
    S->wild_m = (int)x;
    if (get_int(spec, 11, &x)) goto fail;
    S->wg = x;
    S->max_states = MAXSID;
    if (PySequence_Size(spec) > 12) { /* a lower limit (tests) */
        if (get_int(spec, 12, &x)) goto fail;
        if (x > 0 && x < MAXSID) S->max_states = (int)x;
    }
    if (S->wild_total < 0 || S->wild_total > 4 || S->wild_m > S->wild_total) {
        PyErr_SetString(PyExc_ValueError, "bad jokers");
        goto fail;
    }
    for (int v = S->vmin; v <= S->vmax; v++)
        for (int s = 0; s < 4; s++) {
            const ColSuit *cs = &S->col[v][s];
            if (cs->mand + cs->ho + cs->sg + S->wild_total > MAXR) {
                PyErr_SetString(PyExc_ValueError, "too many cards of one face");
                goto fail;
            }
        }
    Py_DECREF(triple);
    Py_DECREF(cols);
    Py_DECREF(kvecs);
    if (setjmp(S->oom)) {
        search_free(S);
        return PyErr_NoMemory();
    }
    intern(S, 0); /* EMPTY is 0 */
    PyObject *cap = PyCapsule_New(S, "solver_c.Search", capsule_free);
    if (!cap) search_free(S);
    return cap;
fail:
    Py_XDECREF(triple);
    Py_XDECREF(cols);
    Py_XDECREF(kvecs);
    search_free(S);
    return NULL;
}

static Search *get_search(PyObject *cap) {
    return PyCapsule_GetPointer(cap, "solver_c.Search");
}

static PyObject *oom_error(int code) {
    if (code == 2) {
        PyErr_SetString(PyExc_OverflowError, "too many suit states");
        return NULL;
    }
    return PyErr_NoMemory();
}

static PyObject *py_top(PyObject *self, PyObject *args) {
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
    Search *S = get_search(cap);
    if (!S) return NULL;
    int code = setjmp(S->oom);
    if (code) return oom_error(code);
    int64_t top = joint_bound(S, S->vmin - 1, 0, S->wild_total);
    if (top <= NEG / 2) Py_RETURN_NONE;
    top -= S->wild_m * S->wg * SC;
    /* floor division, as Python's // */
    int64_t q = top / SC;
    if ((top % SC) && top < 0) q--;
    return PyLong_FromLongLong(q);
}

static PyObject *opt_tuple(const Opt *o) {
    const Raw *r = o->r;
    PyObject *cont = PyTuple_New(r->ncont), *nw = PyTuple_New(r->nnew);
    if (!cont || !nw) {
        Py_XDECREF(cont);
        Py_XDECREF(nw);
        return NULL;
    }
    for (int i = 0; i < r->ncont; i++) PyTuple_SET_ITEM(cont, i, PyLong_FromLong(r->cont[i]));
    for (int i = 0; i < r->nnew; i++) PyTuple_SET_ITEM(nw, i, PyLong_FromLong(r->newc[i]));
    return Py_BuildValue("(iiLii(iiiNN))", r->k, -1, (long long)r->gain, r->w, r->placed, r->n,
                         r->w, r->k, cont, nw);
}

static PyObject *py_work(PyObject *self, PyObject *args) {
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
    Search *S = get_search(cap);
    if (!S) return NULL;
    return PyLong_FromLongLong(S->work);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
    Search *S = get_search(cap);
    if (!S) return NULL;
    size_t bytes = 0;
    for (int v = 0; v < NCOL; v++)
        for (int s = 0; s < 4; s++) bytes += (size_t)S->ent[v][s].cap * sizeof(Entry);
    return Py_BuildValue("{sisn}", "states", S->nstates, "entry_bytes", (Py_ssize_t)bytes);
}

static PyObject *best_path(Search *S);

static PyObject *py_best(PyObject *self, PyObject *args) {
    PyObject *cap, *stop, *budget;
    long long floor_, pending;
    int seeded;
    if (!PyArg_ParseTuple(args, "OLOOLp", &cap, &floor_, &stop, &budget, &pending, &seeded))
        return NULL;
    Search *S = get_search(cap);
    if (!S) return NULL;
    S->budgeted = budget != Py_None;
    if (S->budgeted) {
        S->budget = PyLong_AsLongLong(budget);
        if (S->budget == -1 && PyErr_Occurred()) return NULL;
    }
    S->seeded = seeded;
    S->cut = 0;
    S->synced = S->work - pending; /* the first state charges what came before it */
    S->stop_set = stop != Py_None;
    if (S->stop_set) {
        S->stop_at = PyLong_AsLongLong(stop);
        if (S->stop_at == -1 && PyErr_Occurred()) return NULL;
    }
    int code = setjmp(S->oom);
    if (code) return oom_error(code);
    for (int v = 0; v < NCOL; v++) map_free(&S->failed[v]);
    S->inc = floor_ - 1;
    S->have_inc = 0;
    go(S, S->vmin, 0, 0);
    PyObject *found = NULL;
    if (!S->have_inc) {
        Py_INCREF(Py_None);
        found = Py_None;
    } else {
        found = best_path(S);
        if (!found) return NULL;
    }
    return Py_BuildValue("(NLLi)", found, (long long)S->budget, (long long)(S->work - S->synced),
                         S->cut);
}

static PyObject *best_path(Search *S) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    for (int v = S->vmin; v <= S->vmax; v++) {
        PyObject *t = PyTuple_New(4);
        if (!t) {
            Py_DECREF(path);
            return NULL;
        }
        for (int s = 0; s < 4; s++) {
            PyObject *o = opt_tuple(S->best_path[v][s]);
            if (!o) {
                Py_DECREF(t);
                Py_DECREF(path);
                return NULL;
            }
            PyTuple_SET_ITEM(t, s, o);
        }
        if (PyList_Append(path, t)) {
            Py_DECREF(t);
            Py_DECREF(path);
            return NULL;
        }
        Py_DECREF(t);
    }
    return Py_BuildValue("(LN)", (long long)S->inc, path);
}

static PyMethodDef methods[] = {
    {"new", py_new, METH_VARARGS, "A search of one problem (see the module doc)."},
    {"top", py_top, METH_VARARGS, "The bound of the whole problem, or None."},
    {"stats", py_stats, METH_VARARGS, "Sizes of the search's tables (for benchmarks)."},
    {"work", py_work, METH_VARARGS, "Units of work charged by this search so far."},
    {"best", py_best, METH_VARARGS, "(total, path) of the best solution reaching floor, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_c",
    "The column search of engine/solver/fast.py in C.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&module); }
