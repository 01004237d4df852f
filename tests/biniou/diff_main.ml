(* diff_tool MODE: lines "TYPE PAYLOAD" on stdin, "TYPE RESULT" on stdout,
   RESULT "ERR" when the payload is rejected (or was ERR already), so that
   line i of the output answers line i of the input. MODE: json2json,
   json2bin, bin2json, bin2bin (biniou as hex). *)

let () =
  let mode = if Array.length Sys.argv = 2 then Sys.argv.(1) else "" in
  let pick (c : Diff_lib.conv) =
    match mode with
    | "json2json" -> c.json2json
    | "json2bin" -> c.json2bin
    | "bin2json" -> c.bin2json
    | "bin2bin" -> c.bin2bin
    | _ -> prerr_endline "usage: diff_tool json2json|json2bin|bin2json|bin2bin"; exit 2
  in
  let convs = List.map (fun (name, c) -> (name, pick c)) Diff_types.types in
  try
    while true do
      let line = input_line stdin in
      let sp = try String.index line ' ' with Not_found -> String.length line in
      let name = String.sub line 0 sp in
      let payload = if sp < String.length line then String.sub line (sp + 1) (String.length line - sp - 1) else "" in
      let result =
        match List.assoc_opt name convs with
        | None -> "ERR"
        | Some f -> if payload = "ERR" then "ERR" else (try f payload with _ -> "ERR")
      in
      print_string name;
      print_char ' ';
      print_endline result
    done
  with End_of_file -> ()
