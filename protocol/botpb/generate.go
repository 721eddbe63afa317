package botpb

//go:generate bash generate.sh
