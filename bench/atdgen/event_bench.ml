(* atdgen's own speed on the event workload (schemas/event.atd, the 1000
   events of atdc_bench --dump-events): JSON and biniou, read and write.
   Best of ROUNDS rounds, each a batch of at least 20 ms, like atdc_bench.
     event_bench EVENTS.json ROUNDS   prints one line per case:
     <case> <bytes> <MB/s>  and writes EVENTS.json.bin (atdgen's biniou). *)

let time_batch f =
  (* iterations for >= 20 ms, then the best per-iteration time over rounds *)
  let rec calibrate n =
    let t0 = Unix.gettimeofday () in
    for _ = 1 to n do
      f ()
    done;
    let dt = Unix.gettimeofday () -. t0 in
    if dt >= 0.02 then n else calibrate (n * 2)
  in
  let n = calibrate 1 in
  fun () ->
    let t0 = Unix.gettimeofday () in
    for _ = 1 to n do
      f ()
    done;
    (Unix.gettimeofday () -. t0) /. float_of_int n

let () =
  let file = Sys.argv.(1) and rounds = int_of_string Sys.argv.(2) in
  let ic = open_in_bin file in
  let json = really_input_string ic (in_channel_length ic) in
  close_in ic;
  let v = Event_j.events_of_string json in
  let bin = Event_b.string_of_events v in
  let oc = open_out_bin (file ^ ".bin") in
  output_string oc bin;
  close_out oc;
  let cases =
    [
      ("atdgen.json.read", String.length json, fun () -> ignore (Event_j.events_of_string json));
      ("atdgen.json.write", String.length json, fun () -> ignore (Event_j.string_of_events v));
      ("atdgen.bin.read", String.length bin, fun () -> ignore (Event_b.events_of_string bin));
      ("atdgen.bin.write", String.length bin, fun () -> ignore (Event_b.string_of_events v));
    ]
  in
  let timed = List.map (fun (name, bytes, f) -> (name, bytes, time_batch f, ref infinity)) cases in
  for _ = 1 to rounds do
    List.iter (fun (_, _, run, best) -> best := min !best (run ())) timed
  done;
  List.iter
    (fun (name, bytes, _, best) ->
      Printf.printf "%s %d %.0f\n" name bytes (float_of_int bytes /. !best /. 1e6))
    timed
