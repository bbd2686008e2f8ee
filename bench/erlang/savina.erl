%% savina.erl -- the actormachine benchmark workloads in Erlang/OTP, the same
%% algorithms, parameters and checks as bench/am_bench.c (see bench/workloads/bench.h
%% for the protocols). Run on one scheduler:
%%
%%   erl +S 1 -noshell -noinput -pa DIR -run savina main WORKLOAD RUNS P1 [P2 [P3]]
%%
%% One untimed warm-up run, then RUNS timed runs, each printing
%%   RESULT <workload> <run> <units> <ns>
%% A wrong answer prints "FAIL ..." and halts with status 1.
-module(savina).
-export([main/1]).

-define(M32, 16#FFFFFFFF).
lcg(X) -> (X * 1664525 + 1013904223) band ?M32.

main([Wl, RunsS | Ps]) ->
    Runs = list_to_integer(RunsS),
    P = [list_to_integer(X) || X <- Ps],
    try
        lists:foreach(
          fun(R) ->
                  {Units, Ns} = run(Wl, P),
                  R > 0 andalso io:format("RESULT ~s ~b ~b ~b~n", [Wl, R, Units, Ns])
          end, lists:seq(0, Runs)),
        halt(0)
    catch
        throw:{fail, Msg} -> io:format(standard_error, "FAIL ~s: ~s~n", [Wl, Msg]), halt(1);
        C:E:St -> io:format(standard_error, "FAIL ~s: ~p:~p ~p~n", [Wl, C, E, St]), halt(1)
    end.

fail(Fmt, Args) -> throw({fail, lists:flatten(io_lib:format(Fmt, Args))}).
now_ns() -> erlang:monotonic_time(nanosecond).
kill(Pids) -> [exit(Pid, kill) || Pid <- Pids], ok.

run("pingpong", [N]) -> pingpong(N);
run("ring", [Nodes, Hops]) -> ring(Nodes, Hops);
run("counting", [N]) -> counting(N);
run("fjcreate", [N, Reps]) -> reps(fun() -> fjcreate(N) end, Reps);
run("fib", [N, Reps]) -> reps(fun() -> fib(N) end, Reps);
run("big", [Nodes, Pings]) -> big(Nodes, Pings);
run("bank", [Accounts, T, Round]) -> bank(Accounts, T, Round);
run(Wl, P) -> fail("unknown workload or parameters ~s ~p", [Wl, P]).

reps(F, Reps) ->
    lists:foldl(fun(_, {U, T}) -> {U1, T1} = F(), {U + U1, T + T1} end,
                {0, 0}, lists:seq(1, Reps)).

%% ---- PingPong -------------------------------------------------------------
pong() -> receive {ping, From} -> From ! pong, pong() end.
ping(Pong, Left, Got, Main) ->
    receive
        Msg ->
            Got1 = case Msg of pong -> Got + 1; start -> Got end,
            if Left > 0 -> Pong ! {ping, self()}, ping(Pong, Left - 1, Got1, Main);
               true -> Main ! {done, Got1}
            end
    end.
pingpong(N) ->
    Main = self(),
    Pong = spawn(fun pong/0),
    Ping = spawn(fun() -> ping(Pong, N, 0, Main) end),
    T0 = now_ns(),
    Ping ! start,
    Got = receive {done, G} -> G end,
    T1 = now_ns(),
    Got =:= N orelse fail("received ~b pongs, expected ~b", [Got, N]),
    kill([Pong]),
    {2 * N, T1 - T0}.

%% ---- ThreadRing -------------------------------------------------------------
ring_node(Next, I) ->
    receive
        {link, N} -> ring_node(N, I);
        {token, 0, Ledger} -> Ledger ! {done, I}, ring_node(Next, I);
        {token, H, Ledger} -> Next ! {token, H - 1, Ledger}, ring_node(Next, I)
    end.
ring(Nodes, Hops) ->
    Last = spawn(fun() -> ring_node(none, Nodes - 1) end),
    {First, All} = lists:foldl(
                     fun(I, {Next, Acc}) ->
                             P = spawn(fun() -> ring_node(Next, I) end), {P, [P | Acc]}
                     end, {Last, [Last]}, lists:seq(Nodes - 2, 0, -1)),
    Last ! {link, First},
    T0 = now_ns(),
    First ! {token, Hops, self()},
    At = receive {done, I} -> I end,
    T1 = now_ns(),
    At =:= Hops rem Nodes orelse fail("token stopped at ~b", [At]),
    kill(All),
    {Hops, T1 - T0}.

%% ---- Counting -----------------------------------------------------------------
counter(C) -> receive inc -> counter(C + 1); {get, From} -> From ! {done, C} end.
produce(Counter, 0, Main) -> Counter ! {get, Main};
produce(Counter, N, Main) -> Counter ! inc, produce(Counter, N - 1, Main).
counting(N) ->
    Main = self(),
    Counter = spawn(fun() -> counter(0) end),
    Producer = spawn(fun() -> receive start -> produce(Counter, N, Main) end end),
    T0 = now_ns(),
    Producer ! start,
    C = receive {done, X} -> X end,
    T1 = now_ns(),
    C =:= N orelse fail("count ~b, expected ~b", [C, N]),
    {N, T1 - T0}.

%% ---- Fork-Join (actor creation) -------------------------------------------------
fj_value(I) ->
    X = (I * 2654435761) band ?M32,
    (X bxor (X bsr 15)) band 16#FFFF.
fj_worker() -> receive {work, I, Ledger} -> Ledger ! {done, fj_value(I)} end.
fj_fork(N, N) -> ok;
fj_fork(I, N) -> W = spawn(fun fj_worker/0), W ! {work, I, self()}, fj_fork(I + 1, N).
fj_join(0, Sum) -> Sum;
fj_join(K, Sum) -> receive {done, V} -> fj_join(K - 1, (Sum + V) band ?M32) end.
fjcreate(N) ->
    Want = lists:foldl(fun(I, S) -> (S + fj_value(I)) band ?M32 end, 0, lists:seq(0, N - 1)),
    T0 = now_ns(),
    fj_fork(0, N),
    Sum = fj_join(N, 0),
    T1 = now_ns(),
    Sum =:= Want orelse fail("sum ~b, expected ~b", [Sum, Want]),
    {N, T1 - T0}.

%% ---- Fibonacci (actor per call) ---------------------------------------------------
fib_actor() ->
    receive
        {req, N, Parent} when N < 2 -> Parent ! {done, N};
        {req, N, Parent} ->
            A = spawn(fun fib_actor/0), B = spawn(fun fib_actor/0),
            A ! {req, N - 1, self()}, B ! {req, N - 2, self()},
            receive {done, X} -> receive {done, Y} -> Parent ! {done, X + Y} end end
    end.
fib_calls(N) when N < 2 -> 1;
fib_calls(N) -> 1 + fib_calls(N - 1) + fib_calls(N - 2).
fib_value(N) -> fib_value(N, 0, 1).
fib_value(0, A, _) -> A;
fib_value(N, A, B) -> fib_value(N - 1, B, A + B).
fib(N) ->
    T0 = now_ns(),
    Root = spawn(fun fib_actor/0),
    Root ! {req, N, self()},
    V = receive {done, X} -> X end,
    T1 = now_ns(),
    V =:= fib_value(N) orelse fail("fib(~b) = ~b", [N, V]),
    {2 * fib_calls(N), T1 - T0}.

%% ---- Big ------------------------------------------------------------------------
big_node(Ledger, Left, Rng, Nbs) ->
    receive
        {ping, From} -> From ! pong, big_node(Ledger, Left, Rng, Nbs);
        {link, L} -> big_node(Ledger, Left, Rng, L);
        Msg when Msg =:= start; Msg =:= pong ->
            Left1 = case Msg of pong -> Left - 1; start -> Left end,
            if Left1 > 0 ->
                    Rng1 = lcg(Rng),
                    element((Rng1 bsr 8) rem 5 + 1, Nbs) ! {ping, self()},
                    big_node(Ledger, Left1, Rng1, Nbs);
               true ->
                    Ledger ! {done, 1},
                    big_node(Ledger, Left1, Rng, Nbs)
            end
    end.
big(Nodes, Pings) ->
    Main = self(),
    Ps = list_to_tuple([spawn(fun() -> big_node(Main, Pings, I + 1, none) end)
                        || I <- lists:seq(0, Nodes - 1)]),
    Nb = fun(I, Off) -> element((I + Off) rem Nodes + 1, Ps) end,
    [element(I + 1, Ps) ! {link, {Nb(I, 1), Nb(I, 3), Nb(I, 7), Nb(I, 15), Nb(I, 31)}}
     || I <- lists:seq(0, Nodes - 1)],
    T0 = now_ns(),
    [element(I + 1, Ps) ! start || I <- lists:seq(0, Nodes - 1)],
    [receive {done, 1} -> ok end || _ <- lists:seq(1, Nodes)],
    T1 = now_ns(),
    kill(tuple_to_list(Ps)),
    {2 * Nodes * Pings, T1 - T0}.

%% ---- Bank ---------------------------------------------------------------------
account(Bal) ->
    receive
        {credit, Amt, Dest, Ledger} -> Dest ! {debit, Amt, self()}, account_busy(Bal - Amt, Ledger);
        {debit, Amt, Src} -> Src ! ack, account(Bal + Amt);
        {get, From} -> From ! {balance, self(), Bal}, account(Bal)
    end.
%% waiting for the destination's ack; credits wait in the mailbox
account_busy(Bal, Ledger) ->
    receive
        ack -> Ledger ! {done, 1}, account(Bal);
        {debit, Amt, Src} -> Src ! ack, account_busy(Bal + Amt, Ledger)
    end.
-define(BANK_INITIAL, 1000000000).
bank(Accounts, T, Round) ->
    Acc = list_to_tuple([spawn(fun() -> account(?BANK_INITIAL) end) || _ <- lists:seq(1, Accounts)]),
    T0 = now_ns(),
    Want = bank_rounds(Acc, Accounts, T, Round, 12345, #{}),
    T1 = now_ns(),
    lists:foreach(
      fun(I) ->
              A = element(I + 1, Acc),
              A ! {get, self()},
              B = receive {balance, A, X} -> X end,
              W = ?BANK_INITIAL + maps:get(I, Want, 0),
              B =:= W orelse fail("account ~b balance ~b, expected ~b", [I, B, W])
      end, lists:seq(0, Accounts - 1)),
    kill(tuple_to_list(Acc)),
    {4 * T, T1 - T0}.
bank_rounds(_, _, 0, _, _, Want) -> Want;
bank_rounds(Acc, N, T, Round, Rng, Want) ->
    K = min(T, Round),
    {Rng1, Want1} = bank_send(Acc, N, K, Rng, Want),
    [receive {done, 1} -> ok end || _ <- lists:seq(1, K)],
    bank_rounds(Acc, N, T - K, Round, Rng1, Want1).
bank_send(_, _, 0, Rng, Want) -> {Rng, Want};
bank_send(Acc, N, K, Rng, Want) ->
    R1 = lcg(Rng), Src = (R1 bsr 8) rem N,
    R2 = lcg(R1), D0 = (R2 bsr 8) rem (N - 1),
    Dst = if D0 >= Src -> D0 + 1; true -> D0 end,
    R3 = lcg(R2), Amt = (R3 bsr 8) rem 1000 + 1,
    element(Src + 1, Acc) ! {credit, Amt, element(Dst + 1, Acc), self()},
    W1 = maps:update_with(Src, fun(V) -> V - Amt end, -Amt, Want),
    W2 = maps:update_with(Dst, fun(V) -> V + Amt end, Amt, W1),
    bank_send(Acc, N, K - 1, R3, W2).
