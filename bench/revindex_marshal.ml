(* The revindex benchmark's OCaml Marshal baseline (bench/revindex.sh): the
   same data as bench/revindex_data.h (the same xorshift64* generator and
   words), marshalled whole, unmarshalled whole at open, queried by binary
   search of the sorted map; the same output lines and checksum as
   bench/revindex.c. File names are one string each, shared by their
   occurrences, which Marshal keeps (it detects sharing).
     revindex_marshal write FILE NWORDS NFILES
     revindex_marshal read FILE NWORDS NQUERIES *)

type occurrence = { filename : string; line : int }

let rand s =
  let x = !s in
  let x = Int64.logxor x (Int64.shift_right_logical x 12) in
  let x = Int64.logxor x (Int64.shift_left x 25) in
  let x = Int64.logxor x (Int64.shift_right_logical x 27) in
  s := x;
  Int64.mul x 2685821657736338717L

let word i =
  let x = ref (Int64.logand (Int64.mul (Int64.of_int i) 2654435761L) 0xffffffffL) in
  let b = Buffer.create 8 in
  let continue = ref true in
  while !continue do
    Buffer.add_char b (Char.chr (97 + Int64.to_int (Int64.rem !x 26L)));
    x := Int64.div !x 26L;
    if !x = 0L then continue := false
  done;
  Buffer.contents b

(* bytewise, shorter first on a common prefix: String.compare *)
let generate nwords nfiles seed =
  let s = ref (Int64.logor seed 1L) in
  let files =
    Array.init nfiles (fun f -> Printf.sprintf "src/lib%03d/module_%06d.ml" (f mod 997) f)
  in
  let items =
    Array.init nwords (fun i ->
        let w = word i in
        let n = 1 + Int64.to_int (Int64.unsigned_rem (rand s) 100L) in
        let occ =
          Array.init n (fun _ ->
              let r = rand s in
              let f = Int64.to_int (Int64.rem (Int64.shift_right_logical r 16) (Int64.of_int nfiles)) in
              { filename = files.(f); line = 1 + Int64.to_int (Int64.rem (Int64.logand r 0xffffL) 5000L) })
        in
        (w, occ))
  in
  Array.sort (fun (a, _) (b, _) -> String.compare a b) items;
  items

let now () = Unix.gettimeofday ()

let write path nwords nfiles =
  let items = generate nwords nfiles 20260101L in
  let tmp = path ^ ".tmp" in
  let t0 = now () in
  let oc = open_out_bin tmp in
  Marshal.to_channel oc items [];
  close_out oc;
  let t1 = now () in
  Unix.rename tmp path;
  Printf.printf "write_s=%.6f size=%d\n" (t1 -. t0) (Unix.stat path).Unix.st_size

let rss_kb () =
  try
    let ic = open_in "/proc/self/statm" in
    let line = input_line ic in
    close_in ic;
    Scanf.sscanf line "%d %d" (fun _ r -> r * 4)
  with _ -> 0

let peak_kb () =
  try
    let ic = open_in "/proc/self/status" in
    let rec loop () =
      let l = input_line ic in
      if String.length l > 6 && String.sub l 0 6 = "VmHWM:" then Scanf.sscanf l "VmHWM: %d" (fun k -> k)
      else loop ()
    in
    let k = loop () in
    close_in ic;
    k
  with _ -> 0

let read path nwords nqueries =
  let t0 = now () in
  let ic = open_in_bin path in
  let (items : (string * occurrence array) array) = Marshal.from_channel ic in
  close_in ic;
  let t1 = now () in
  let rss_open = rss_kb () in
  let s = ref 4242L in
  let occs = ref 0 and lines = ref 0 in
  for _ = 1 to nqueries do
    let w = word (Int64.to_int (Int64.unsigned_rem (rand s) (Int64.of_int nwords))) in
    let lo = ref 0 and hi = ref (Array.length items) and found = ref None in
    while !found = None && !lo < !hi do
      let mid = (!lo + !hi) / 2 in
      let k, v = items.(mid) in
      let c = String.compare w k in
      if c = 0 then found := Some v else if c < 0 then hi := mid else lo := mid + 1
    done;
    match !found with
    | None -> failwith "a word is missing"
    | Some v ->
        occs := !occs + Array.length v;
        Array.iter (fun o -> lines := !lines + o.line + String.length o.filename) v
  done;
  let t2 = now () in
  Printf.printf "open_s=%.6f queries_s=%.6f rss_open_kb=%d peak_kb=%d pages_open=0 pages_queries=0 checksum=%d.%d\n"
    (t1 -. t0) (t2 -. t1) rss_open (peak_kb ()) !occs !lines

let () =
  match Sys.argv with
  | [| _; "write"; path; n; m |] -> write path (int_of_string n) (int_of_string m)
  | [| _; ("read" | "read_cold"); path; n; q |] -> read path (int_of_string n) (int_of_string q)
  | _ ->
      prerr_endline "usage: revindex_marshal write FILE NWORDS NFILES | read FILE NWORDS NQUERIES";
      exit 2
