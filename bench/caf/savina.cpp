// savina.cpp -- the actormachine benchmark workloads in the C++ Actor
// Framework (CAF 0.17, Debian 12's libcaf-dev): the same algorithms,
// parameters and checks as bench/am_bench.c (protocols in bench/workloads/bench.h).
// One scheduler worker thread (scheduler.max-threads = 1); the main thread
// only starts a run and blocks until its result arrives.
//
//   savina-caf WORKLOAD RUNS P1 [P2 [P3]]
//
// One untimed warm-up run, then RUNS timed runs, each printing
//   RESULT <workload> <run> <units> <ns>
// A wrong answer prints "FAIL ..." and exits 1.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "caf/all.hpp"

using namespace caf;

using start_atom = atom_constant<atom("start")>;
using ping_atom = atom_constant<atom("ping")>;
using pong_atom = atom_constant<atom("pong")>;
using done_atom = atom_constant<atom("done")>;
using link_atom = atom_constant<atom("link")>;
using token_atom = atom_constant<atom("token")>;
using inc_atom = atom_constant<atom("inc")>;
using get_atom = atom_constant<atom("get")>;
using work_atom = atom_constant<atom("work")>;
using req_atom = atom_constant<atom("req")>;
using credit_atom = atom_constant<atom("credit")>;
using debit_atom = atom_constant<atom("debit")>;
using ack_atom = atom_constant<atom("ack")>;

static std::string g_wl = "?";

[[noreturn]] static void fail(const std::string& msg) {
  std::fprintf(stderr, "FAIL %s: %s\n", g_wl.c_str(), msg.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

static uint32_t lcg(uint32_t x) { return x * 1664525u + 1013904223u; }
static uint64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct run_result { uint64_t units, ns; };

// Wait for one message [done, v] at the scoped actor.
static uint64_t await_done(scoped_actor& self) {
  uint64_t v = 0;
  self->receive([&](done_atom, uint64_t x) { v = x; });
  return v;
}

static void kill_all(scoped_actor& self, const std::vector<actor>& as) {
  for (auto& a : as) self->send_exit(a, exit_reason::kill);
}

// ---- PingPong ----------------------------------------------------------------
struct ping_state { actor pong, main; uint64_t left = 0, got = 0; };
static behavior ping_actor(stateful_actor<ping_state>* self, actor pong, uint64_t n, actor main) {
  self->state.pong = pong;
  self->state.main = main;
  self->state.left = n;
  auto step = [=] {
    auto& s = self->state;
    if (s.left > 0) { s.left--; self->send(s.pong, ping_atom::value); }
    else self->send(s.main, done_atom::value, s.got);
  };
  return {
    [=](start_atom) { step(); },
    [=](pong_atom) { self->state.got++; step(); },
  };
}
static behavior pong_actor(event_based_actor*) {
  return { [](ping_atom) { return pong_atom::value; } };
}
static run_result pingpong(actor_system& sys, scoped_actor& self, uint64_t n) {
  auto pong = sys.spawn(pong_actor);
  auto ping = sys.spawn(ping_actor, pong, n, actor_cast<actor>(self));
  uint64_t t0 = now_ns();
  self->send(ping, start_atom::value);
  uint64_t got = await_done(self);
  uint64_t t1 = now_ns();
  if (got != n) fail("received " + std::to_string(got) + " pongs");
  kill_all(self, {ping, pong});
  return {2 * n, t1 - t0};
}

// ---- ThreadRing ----------------------------------------------------------------
struct ring_state { actor next; uint32_t index = 0; };
static behavior ring_node(stateful_actor<ring_state>* self, actor next, uint32_t index) {
  self->state.next = next;
  self->state.index = index;
  return {
    [=](link_atom, actor n) { self->state.next = n; },
    [=](token_atom, uint32_t hops, const actor& ledger) {
      if (hops == 0) self->send(ledger, done_atom::value, uint64_t{self->state.index});
      else self->send(self->state.next, token_atom::value, hops - 1, ledger);
    },
  };
}
static run_result ring(actor_system& sys, scoped_actor& self, uint32_t nodes, uint32_t hops) {
  std::vector<actor> all;
  auto last = sys.spawn(ring_node, actor{}, nodes - 1);
  all.push_back(last);
  actor next = last;
  for (uint32_t i = nodes - 1; i-- > 0;) {
    next = sys.spawn(ring_node, next, i);
    all.push_back(next);
  }
  self->send(last, link_atom::value, next);
  uint64_t t0 = now_ns();
  self->send(next, token_atom::value, hops, actor_cast<actor>(self));
  uint64_t at = await_done(self);
  uint64_t t1 = now_ns();
  if (at != hops % nodes) fail("token stopped at node " + std::to_string(at));
  kill_all(self, all);
  return {hops, t1 - t0};
}

// ---- Counting --------------------------------------------------------------------
struct counter_state { uint64_t count = 0; };
static behavior counter_actor(stateful_actor<counter_state>* self) {
  return {
    [=](inc_atom) { self->state.count++; },
    [=](get_atom, const actor& cust) { self->send(cust, done_atom::value, self->state.count); },
  };
}
static behavior producer_actor(event_based_actor* self, actor counter, uint64_t n, actor main) {
  return {
    [=](start_atom) {
      for (uint64_t i = 0; i < n; i++) self->send(counter, inc_atom::value);
      self->send(counter, get_atom::value, main);
    },
  };
}
static run_result counting(actor_system& sys, scoped_actor& self, uint64_t n) {
  auto counter = sys.spawn(counter_actor);
  auto producer = sys.spawn(producer_actor, counter, n, actor_cast<actor>(self));
  uint64_t t0 = now_ns();
  self->send(producer, start_atom::value);
  uint64_t c = await_done(self);
  uint64_t t1 = now_ns();
  if (c != n) fail("count " + std::to_string(c));
  kill_all(self, {counter, producer});
  return {n, t1 - t0};
}

// ---- Fork-Join (actor creation) ---------------------------------------------------
static uint32_t fj_value(uint32_t i) {
  uint32_t x = i * 2654435761u;
  x ^= x >> 15;
  return x & 0xffffu;
}
static behavior fj_worker(event_based_actor* self) {
  return {
    [=](work_atom, uint32_t i, const actor& ledger) {
      self->send(ledger, done_atom::value, uint64_t{fj_value(i)});
      self->quit();
    },
  };
}
struct forker_state { uint32_t left = 0; uint32_t sum = 0; };
static behavior fj_forker(stateful_actor<forker_state>* self, uint32_t n, actor main) {
  return {
    [=](start_atom) {
      self->state.left = n;
      for (uint32_t i = 0; i < n; i++) {
        auto w = self->spawn(fj_worker);
        self->send(w, work_atom::value, i, actor_cast<actor>(self));
      }
    },
    [=](done_atom, uint64_t v) {
      self->state.sum += static_cast<uint32_t>(v);
      if (--self->state.left == 0) {
        self->send(main, done_atom::value, uint64_t{self->state.sum});
        self->quit();
      }
    },
  };
}
static run_result fjcreate(actor_system& sys, scoped_actor& self, uint32_t n) {
  uint32_t want = 0;
  for (uint32_t i = 0; i < n; i++) want += fj_value(i);
  auto forker = sys.spawn(fj_forker, n, actor_cast<actor>(self));
  uint64_t t0 = now_ns();
  self->send(forker, start_atom::value);
  uint64_t sum = await_done(self);
  uint64_t t1 = now_ns();
  if (sum != want) fail("sum " + std::to_string(sum) + ", expected " + std::to_string(want));
  return {n, t1 - t0};
}

// ---- Fibonacci (actor per call) ---------------------------------------------------
struct fib_state { actor parent; uint64_t got = 0, sum = 0; };
static behavior fib_actor(stateful_actor<fib_state>* self) {
  return {
    [=](req_atom, uint32_t n, const actor& parent) {
      if (n < 2) {
        self->send(parent, done_atom::value, uint64_t{n});
        self->quit();
        return;
      }
      self->state.parent = parent;
      auto me = actor_cast<actor>(self);
      self->send(self->spawn(fib_actor), req_atom::value, n - 1, me);
      self->send(self->spawn(fib_actor), req_atom::value, n - 2, me);
      self->become([=](done_atom, uint64_t v) {
        auto& s = self->state;
        s.sum += v;
        if (++s.got == 2) {
          self->send(s.parent, done_atom::value, s.sum);
          self->quit();
        }
      });
    },
  };
}
static uint64_t fib_calls(uint32_t n) { return n < 2 ? 1 : 1 + fib_calls(n - 1) + fib_calls(n - 2); }
static run_result fib(actor_system& sys, scoped_actor& self, uint32_t n) {
  uint64_t a = 0, b = 1;
  for (uint32_t i = 0; i < n; i++) { uint64_t t = a + b; a = b; b = t; }
  uint64_t t0 = now_ns();
  auto root = sys.spawn(fib_actor);
  self->send(root, req_atom::value, n, actor_cast<actor>(self));
  uint64_t v = await_done(self);
  uint64_t t1 = now_ns();
  if (v != a) fail("fib = " + std::to_string(v));
  return {2 * fib_calls(n), t1 - t0};
}

// ---- Big --------------------------------------------------------------------------
static const uint32_t big_offsets[5] = {1, 3, 7, 15, 31};
struct big_state { actor ledger; uint64_t left = 0; uint32_t rng = 0; std::vector<actor> nb; };
static behavior big_node(stateful_actor<big_state>* self, actor ledger, uint64_t pings, uint32_t seed) {
  self->state.ledger = ledger;
  self->state.left = pings;
  self->state.rng = seed;
  auto step = [=] {
    auto& s = self->state;
    if (s.left > 0) {
      s.rng = lcg(s.rng);
      self->send(s.nb[(s.rng >> 8) % 5], ping_atom::value);
    } else {
      self->send(s.ledger, done_atom::value, uint64_t{1});
    }
  };
  return {
    [=](ping_atom) { return pong_atom::value; },
    [=](link_atom, const std::vector<actor>& nb) { self->state.nb = nb; },
    [=](start_atom) { step(); },
    [=](pong_atom) { self->state.left--; step(); },
  };
}
static run_result big(actor_system& sys, scoped_actor& self, uint32_t nodes, uint64_t pings) {
  std::vector<actor> ps;
  for (uint32_t i = 0; i < nodes; i++) ps.push_back(sys.spawn(big_node, actor_cast<actor>(self), pings, i + 1));
  for (uint32_t i = 0; i < nodes; i++) {
    std::vector<actor> nb;
    for (auto off : big_offsets) nb.push_back(ps[(i + off) % nodes]);
    self->send(ps[i], link_atom::value, nb);
  }
  uint64_t t0 = now_ns();
  for (auto& p : ps) self->send(p, start_atom::value);
  for (uint32_t i = 0; i < nodes; i++) await_done(self);
  uint64_t t1 = now_ns();
  kill_all(self, ps);
  return {2 * nodes * pings, t1 - t0};
}

// ---- Bank ---------------------------------------------------------------------------
static const uint64_t bank_initial = 1000000000u;
struct account_state { uint64_t balance = bank_initial; actor ledger; };
static behavior account_actor(stateful_actor<account_state>* self);
// waiting for the destination's ack; credits stay in the mailbox (skip)
static behavior account_busy(stateful_actor<account_state>* self) {
  return {
    [=](ack_atom) {
      self->send(self->state.ledger, done_atom::value, uint64_t{1});
      self->become(account_actor(self));
    },
    [=](debit_atom, uint64_t amt) { self->state.balance += amt; return ack_atom::value; },
  };
}
static behavior account_actor(stateful_actor<account_state>* self) {
  self->set_default_handler(skip);
  return {
    [=](credit_atom, uint64_t amt, const actor& dest, const actor& ledger) {
      self->state.balance -= amt;
      self->state.ledger = ledger;
      self->send(dest, debit_atom::value, amt);
      self->become(account_busy(self));
    },
    [=](debit_atom, uint64_t amt) { self->state.balance += amt; return ack_atom::value; },
    [=](get_atom) { return self->state.balance; },
  };
}
struct teller_state { std::vector<actor> acc; uint32_t rng = 12345, left = 0, pending = 0; };
static behavior teller_actor(stateful_actor<teller_state>* self, std::vector<actor> acc,
                             uint32_t transfers, uint32_t round, actor main) {
  self->state.acc = acc;
  self->state.left = transfers;
  auto send_round = [=] {
    auto& s = self->state;
    uint32_t k = s.left < round ? s.left : round;
    uint32_t n = static_cast<uint32_t>(s.acc.size());
    for (uint32_t j = 0; j < k; j++) {
      s.rng = lcg(s.rng); uint32_t src = (s.rng >> 8) % n;
      s.rng = lcg(s.rng); uint32_t dst = (s.rng >> 8) % (n - 1);
      if (dst >= src) dst++;
      s.rng = lcg(s.rng); uint64_t amt = (s.rng >> 8) % 1000 + 1;
      self->send(s.acc[src], credit_atom::value, amt, s.acc[dst], actor_cast<actor>(self));
    }
    s.left -= k;
    s.pending = k;
  };
  return {
    [=](start_atom) { send_round(); },
    [=](done_atom, uint64_t) {
      if (--self->state.pending > 0) return;
      if (self->state.left > 0) send_round();
      else { self->send(main, done_atom::value, uint64_t{transfers}); self->quit(); }
    },
  };
}
static run_result bank(actor_system& sys, scoped_actor& self, uint32_t accounts, uint32_t transfers, uint32_t round) {
  std::vector<actor> acc;
  for (uint32_t i = 0; i < accounts; i++) acc.push_back(sys.spawn(account_actor));
  auto teller = sys.spawn(teller_actor, acc, transfers, round, actor_cast<actor>(self));
  uint64_t t0 = now_ns();
  self->send(teller, start_atom::value);
  uint64_t done = await_done(self);
  uint64_t t1 = now_ns();
  if (done != transfers) fail("transfers done " + std::to_string(done));
  std::vector<uint64_t> want(accounts, bank_initial);
  uint32_t rng = 12345;
  for (uint32_t t = 0; t < transfers; t++) {
    rng = lcg(rng); uint32_t src = (rng >> 8) % accounts;
    rng = lcg(rng); uint32_t dst = (rng >> 8) % (accounts - 1);
    if (dst >= src) dst++;
    rng = lcg(rng); uint64_t amt = (rng >> 8) % 1000 + 1;
    want[src] -= amt;
    want[dst] += amt;
  }
  for (uint32_t i = 0; i < accounts; i++) {
    self->request(acc[i], infinite, get_atom::value).receive(
      [&](uint64_t b) {
        if (b != want[i]) fail("account " + std::to_string(i) + " balance " + std::to_string(b));
      },
      [&](error& e) { fail("get: " + to_string(e)); });
  }
  kill_all(self, acc);
  return {4 * uint64_t{transfers}, t1 - t0};
}

// ---- main -----------------------------------------------------------------------------
int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: savina-caf WORKLOAD RUNS P1 [P2 [P3]]\n");
    return 2;
  }
  g_wl = argv[1];
  uint32_t runs = std::strtoul(argv[2], nullptr, 0);
  uint32_t p[3] = {0, 0, 0};
  for (int i = 3; i < argc && i < 6; i++) p[i - 3] = std::strtoul(argv[i], nullptr, 0);
  actor_system_config cfg;
  cfg.set("scheduler.max-threads", 1);
  actor_system sys{cfg};
  scoped_actor self{sys};
  for (uint32_t r = 0; r <= runs; r++) {  // run 0: warm-up, not printed
    run_result res{0, 0};
    auto reps = [&](uint32_t k, auto f) {
      for (uint32_t i = 0; i < k; i++) { auto x = f(); res.units += x.units; res.ns += x.ns; }
    };
    if (g_wl == "pingpong") res = pingpong(sys, self, p[0]);
    else if (g_wl == "ring") res = ring(sys, self, p[0], p[1]);
    else if (g_wl == "counting") res = counting(sys, self, p[0]);
    else if (g_wl == "fjcreate") reps(p[1], [&] { return fjcreate(sys, self, p[0]); });
    else if (g_wl == "fib") reps(p[1], [&] { return fib(sys, self, p[0]); });
    else if (g_wl == "big") res = big(sys, self, p[0], p[1]);
    else if (g_wl == "bank") res = bank(sys, self, p[0], p[1], p[2]);
    else fail("unknown workload");
    if (r > 0)
      std::printf("RESULT %s %u %llu %llu\n", g_wl.c_str(), r, (unsigned long long)res.units,
                  (unsigned long long)res.ns);
    std::fflush(stdout);
  }
  return 0;
}
