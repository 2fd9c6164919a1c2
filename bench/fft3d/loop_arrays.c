/* One FFTW 3-D plan of fft3d's one-rank contract (input (x, y, z), spectrum (y, x, z), z fastest, out of place), timed
 * in two loops: forward + inverse pairs through two arrays (a -> b -> a, FFTW-MPI's benchmark loop) and through three
 * (u -> s -> back, fft3d's timed loop before 2026-11-29, which kept u for the round-trip check). Medians of REPS pairs,
 * 3 rounds. Build and run (one core):
 *   gcc -O2 -march=native loop_arrays.c -o loop_arrays -lfftw3 -lm && taskset -c 0 ./loop_arrays N REPS [e|m] */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):64, reps=argc>2?atoi(argv[2]):80; unsigned flag=argc>3&&argv[3][0]=='m'?FFTW_MEASURE:FFTW_ESTIMATE;
  size_t N=(size_t)n*n*n;
  fftw_complex *u=fftw_alloc_complex(N),*s=fftw_alloc_complex(N),*b=fftw_alloc_complex(N);
  // input (x,y,z) z fastest; output (y,x,z): dims x: n, is n*n, os n ; y: n, is n, os n*n ; z: n,1,1
  fftw_iodim f[3]={{n,n*n,n},{n,n,n*n},{n,1,1}}, iv[3]={{n,n,n*n},{n,n*n,n},{n,1,1}};
  fftw_plan pf=fftw_plan_guru_dft(3,f,0,NULL,u,s,FFTW_FORWARD,flag);
  fftw_plan pi3=fftw_plan_guru_dft(3,iv,0,NULL,s,b,FFTW_BACKWARD,flag);   // spectrum (y,x,z) -> (x,y,z) into b
  fftw_plan pi2=fftw_plan_guru_dft(3,iv,0,NULL,s,u,FFTW_BACKWARD,flag);   // into u (2-array loop)
  for(size_t i=0;i<N;i++){u[i][0]=sin(0.001*i);u[i][1]=cos(0.002*i);}
  double *t2=malloc(sizeof(double)*reps),*t3=malloc(sizeof(double)*reps);
  for(int round=0;round<3;round++){
    for(int r=0;r<reps;r++){double t0=now();fftw_execute(pf);fftw_execute(pi2);t2[r]=(now()-t0)/2;}
    for(int r=0;r<reps;r++){double t0=now();fftw_execute(pf);fftw_execute(pi3);t3[r]=(now()-t0)/2;}
    qsort(t2,reps,8,cmp);qsort(t3,reps,8,cmp);
    double fl=5.0*N*log2((double)N)*1e-9;
    printf("n=%d round %d: 2 arrays %.3f ms (%.2f GFLOP/s), 3 arrays %.3f ms (%.2f GFLOP/s), 3/2 speed %.3f\n",n,round,t2[reps/2]*1e3,fl/t2[reps/2],t3[reps/2]*1e3,fl/t3[reps/2],t2[reps/2]/t3[reps/2]);
  }
  return 0;}
